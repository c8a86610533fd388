// Package dataset reads the public data sets recmem is evaluated on.
//
// RecBole atomic files (recbole*.go) are tab-separated tables whose first line
// names every column with its RecBole type, "name:type", where type is one of
// token, token_seq, float or float_seq (https://recbole.io/docs/user_guide/data/atomic_files.html).
// The loader reads columns by name from that header, never by position, so the
// same code reads any data set in the format: every column of the .item file
// other than item_id becomes item metadata, whatever it is called.
package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Column is one column of an atomic file header.
type Column struct {
	Name string // e.g. "title"
	Type string // token, token_seq, float or float_seq
}

// Table is one atomic file: its header and its rows, each row holding one
// string per column (token_seq values keep their spaces).
type Table struct {
	Columns []Column
	Rows    [][]string
}

// Index returns the position of the named column, or -1.
func (t *Table) Index(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// ErrHeader is wrapped by errors about a malformed atomic header.
var ErrHeader = errors.New("dataset: bad atomic header")

// ReadTable reads an atomic file. Rows with fewer fields than the header are
// padded with empty strings; rows with more are refused. O(bytes).
func ReadTable(r io.Reader) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("dataset: reading header: %w", err)
		}
		return nil, fmt.Errorf("%w: empty file", ErrHeader)
	}
	var t Table
	for i, f := range strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t") {
		name, typ, ok := strings.Cut(f, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("%w: column %d %q is not name:type", ErrHeader, i, f)
		}
		switch typ {
		case "token", "token_seq", "float", "float_seq":
		default:
			return nil, fmt.Errorf("%w: column %q has unknown type %q", ErrHeader, name, typ)
		}
		t.Columns = append(t.Columns, Column{Name: name, Type: typ})
	}
	line := 1
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if s == "" {
			continue
		}
		f := strings.Split(s, "\t")
		if len(f) > len(t.Columns) {
			return nil, fmt.Errorf("dataset: line %d: %d fields, header has %d", line, len(f), len(t.Columns))
		}
		for len(f) < len(t.Columns) {
			f = append(f, "")
		}
		t.Rows = append(t.Rows, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dataset: line %d: %w", line, err)
	}
	return &t, nil
}
