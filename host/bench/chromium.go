package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ChromiumUnits is the memory restored in Chromium: issue 18's "restore of
// 10,000 units in Chromium" (target 50 ms).
var ChromiumUnits = 10000

// chromiumPath is the browser web/bench/restore.mjs drives (Debian's
// chromium; RECMEM_CHROMIUM overrides it there and here).
func chromiumPath() string {
	if p := os.Getenv("RECMEM_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// Chromium is the restore of a memory in headless Chromium, per state
// format ("json", "binary"): the state's bytes, importState on an open
// instance, and the whole restore from IndexedDB to a first answer
// (web/bench/restore.mjs says exactly what each covers). Error is set, and
// the rest empty, when it failed.
type Chromium struct {
	Version    string          `json:"chromium,omitempty"`
	What       string          `json:"what,omitempty"`
	Units      int             `json:"units,omitempty"`
	StateBytes map[string]int  `json:"bytes,omitempty"`
	ImportMs   map[string]Stat `json:"import_ms,omitempty"`
	RestoreMs  map[string]Stat `json:"restore_ms,omitempty"`
	Error      string          `json:"error,omitempty"`
	// FirstVisit is a new user opening the games page (issue 24).
	FirstVisit *FirstVisit `json:"first_visit,omitempty"`
}

// FirstVisit is the games page opened on a fresh profile, as a new user
// does (web/bench/firstvisit.mjs): navigation start to the first
// recommendations shown, and to interactive. Error is set when it failed.
type FirstVisit struct {
	What        string `json:"what,omitempty"`
	FirstRecsMs Stat   `json:"first_recs_ms"`
	ReadyMs     Stat   `json:"ready_ms"`
	// PhasesMs are the page's steps, from navigation start: the module
	// compiled and opened ("module"), the catalog loaded ("catalog"), the
	// first list shown ("firstRecs").
	PhasesMs map[string]Stat `json:"phases_ms,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// runFirstVisit times a first visit to the page, r.Iters times (at most 9),
// with node web/bench/firstvisit.mjs (bin/recmem serve and Chromium).
func (r *runner) runFirstVisit() *FirstVisit {
	wasm, _ := filepath.Abs(r.Wasm)
	cmd := exec.Command("node", filepath.Join("web", "bench", "firstvisit.mjs"), "--json", "--iters", strconv.Itoa(min(r.Iters, 9)))
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "RECMEM_WASM="+wasm)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return &FirstVisit{Error: fmt.Sprintf("node web/bench/firstvisit.mjs: %v: %s", err, msg)}
	}
	var f FirstVisit
	if err := json.Unmarshal(stdout.Bytes(), &f); err != nil {
		return &FirstVisit{Error: "node web/bench/firstvisit.mjs: " + err.Error()}
	}
	return &f
}

// chromiumSkip says why the restore cannot be timed here, or "".
func chromiumSkip(root string) string {
	switch {
	case root == "":
		return "chromium: web/ not found: run recmem bench from the repository"
	case !exists(chromiumPath()):
		return "chromium: " + chromiumPath() + " is missing (apt-get install chromium, or set RECMEM_CHROMIUM)"
	case !exists(filepath.Join(root, "web", "node_modules", "playwright-core")):
		return "chromium: playwright-core is not installed under web/node_modules (cd web && npm ci; ./build.sh does it)"
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "chromium: node is not on the PATH"
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// runChromium times the restore of ChromiumUnits LoCoMo units in Chromium
// with node web/bench/restore.mjs, r.Iters times per format (at most 9: each
// round restores 10,000 units twice, a few seconds).
func (r *runner) runChromium() *Chromium {
	wasm, _ := filepath.Abs(r.Wasm)
	data, _ := filepath.Abs(r.LoCoMo)
	cmd := exec.Command("node", filepath.Join("web", "bench", "restore.mjs"), "--json",
		"--units", strconv.Itoa(ChromiumUnits), "--iters", strconv.Itoa(min(r.Iters, 9)), "--data", data)
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "RECMEM_WASM="+wasm)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return &Chromium{Error: fmt.Sprintf("node web/bench/restore.mjs: %v: %s", err, msg)}
	}
	var c Chromium
	if err := json.Unmarshal(stdout.Bytes(), &c); err != nil {
		return &Chromium{Error: "node web/bench/restore.mjs: " + err.Error()}
	}
	return &c
}
