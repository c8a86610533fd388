package main

import (
	"io"
	"os"
)

// isTerminal reports whether w is a terminal (a character device), where
// progress is redrawn in place rather than written line by line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
