package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/workload"
)

// runBleve runs the bleve peer, a test-only package so that neither the
// plugin nor the command links bleve, and returns its JSON object (or an
// object holding the error).
func (r *runner) runBleve() map[string]any {
	if r.Root == "" {
		return map[string]any{"error": "host/peers not found: run recmem bench from the repository"}
	}
	f, err := os.CreateTemp("", "recmem-bleve-*.json")
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	f.Close()
	defer os.Remove(f.Name())
	sizes := make([]string, len(r.Sizes))
	for i, n := range r.Sizes {
		sizes[i] = strconv.Itoa(n)
	}
	cmd := exec.Command("go", "test", "-run", "^TestBlevePeer$", "-count=1", "./host/peers", "-args",
		"-peer.out", f.Name(), "-peer.sizes", strings.Join(sizes, ","), "-peer.iters", strconv.Itoa(r.Iters))
	cmd.Dir = r.Root
	return runPeer(cmd, f.Name())
}

// runNode writes the shared workload file and runs the Node runner: the same
// paths through the JavaScript host, and the Orama peer. Node ranks with the
// trained catalog when catBytes holds it, else with the page's demo
// catalog (rs), written to a temporary file.
func (r *runner) runNode(mem *workload.Memory, catBytes []byte, rs *rankSet) (node, orama map[string]any) {
	fail := func(err error) (map[string]any, map[string]any) {
		e := map[string]any{"error": err.Error()}
		return e, e
	}
	if r.Root == "" {
		return fail(errors.New("web/bench not found: run recmem bench from the repository"))
	}
	catPath := r.Catalog
	if catBytes == nil {
		catPath = "" // no usable catalog: no rank in Node either
		if rs.demo != nil {
			cf, err := os.CreateTemp("", "recmem-demo-catalog-*.json")
			if err != nil {
				return fail(err)
			}
			defer os.Remove(cf.Name())
			_, err = cf.Write(rs.demoBytes)
			if err2 := cf.Close(); err == nil {
				err = err2
			}
			if err != nil {
				return fail(err)
			}
			catPath = cf.Name()
		}
	}
	wf, err := workload.BuildFile(r.LoCoMo, catPath, r.Sizes, workload.FileOptions{})
	if err != nil {
		return fail(err)
	}
	f, err := os.CreateTemp("", "recmem-workload-*.json")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(f.Name())
	if err := wf.Write(f); err != nil {
		f.Close()
		return fail(err)
	}
	f.Close()
	wasm, _ := filepath.Abs(r.Wasm)
	args := []string{filepath.Join("web", "bench", "bench.mjs"), "--workload", f.Name(), "--wasm", wasm,
		"--iters", strconv.Itoa(r.Iters), "--max-ms", strconv.FormatInt(r.MaxTime.Milliseconds(), 10), "--json"}
	if catPath != "" {
		abs, _ := filepath.Abs(catPath)
		args = append(args, "--catalog", abs)
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = r.Root
	res := runPeer(cmd, "")
	if _, bad := res["error"]; bad {
		return res, res
	}
	orama, _ = res["orama"].(map[string]any)
	delete(res, "orama")
	return res, orama
}

// runPeer runs cmd and decodes the JSON object it wrote to out, or to its
// standard output when out is "".
func runPeer(cmd *exec.Cmd, out string) map[string]any {
	var stdout, stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return map[string]any{"error": fmt.Sprintf("%s: %v: %s", strings.Join(cmd.Args, " "), err, msg)}
	}
	b := stdout.Bytes()
	if out != "" {
		var err error
		if b, err = os.ReadFile(out); err != nil {
			return map[string]any{"error": err.Error()}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"error": "decoding " + out + ": " + err.Error()}
	}
	return m
}

// peerSelect reads a peer's median select time at n units: a number, or an
// object with a median (0 when there is neither).
func peerSelect(p map[string]any, n string) float64 {
	sel, _ := p["select_ms"].(map[string]any)
	switch v := sel[n].(type) {
	case float64:
		return v
	case map[string]any:
		m, _ := v["median"].(float64)
		return m
	}
	return 0
}

// peerRatios sets rep.Ratios at the largest memory size: recmem's plugin in
// the Go host over bleve, and recmem's plugin in Node over Orama, when both
// sides were measured.
func peerRatios(rep *Report, largest string) {
	if b, ok := rep.Peers["bleve"].(map[string]any); ok {
		if v := peerSelect(b, largest); v > 0 {
			rep.Ratios["recmem_wasm_over_bleve_"+largest] = round3(rep.SelectMs[largest] / v)
		}
	}
	if orama, ok := rep.Peers["orama"].(map[string]any); ok {
		if v := peerSelect(orama, largest); v > 0 {
			if nodeSel, ok := rep.Node["select_ms"].(map[string]any); ok {
				if st, ok := nodeSel[largest].(map[string]any); ok {
					if m, ok := st["median"].(float64); ok {
						rep.Ratios["recmem_js_over_orama_"+largest] = round3(m / v)
					}
				}
			}
		}
	}
}
