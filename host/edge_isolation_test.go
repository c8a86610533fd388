package host_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
)

// edgeInputs is one successful input per export the stateless API serves,
// chosen to change as much instance state as the export can.
var edgeInputs = map[string]string{
	"exports":      `{}`,
	"record":       `{"signals":[{"user":"u1","item":"a","action":"purchase","meta":{"title":"Space Shooter Deluxe"},"time":100},{"user":"u1","item":"b","action":"like","time":101}],"maintain":"fixed"}`,
	"maintain":     `{"now":400,"scheduler":"planner","force":true}`,
	"plan":         `{"now":400,"scheduler":"planner","force":true}`,
	"apply_ops":    `{"now":300,"ops":[{"op":"extract","category":"genre","text":"Enjoys racing","strength":0.9},{"op":"synthesize"}]}`,
	"get_memory":   `{"journal_limit":1}`,
	"rank":         `{"candidates":["a","b","c",{"id":"zz","meta":{"title":"Injected Item"}}],"instruction":"space shooters","k":3}`,
	"add_units":    `{"units":[{"id":"t1","session":"s1","speaker":"Ana","text":"pottery class moved to Thursday"}]}`,
	"delete_units": `{"ids":["t0"]}`,
	"purge":        `{"user":"u1"}`,
	"select_slate": `{"query":"when is pottery","budget":100}`,
	"export_state": ``,
	"reset":        `{"config":{"event_cap":3,"batch":1,"categories":["genre"]}}`,
}

// TestEdgeServesOnlyIsolatedExports: every export of the module is either
// served by /v1 (host.EdgeExports) or refused with 403; a new export fails
// this test until it is classified.
func TestEdgeServesOnlyIsolatedExports(t *testing.T) {
	rt := openRuntime(t)
	in, err := rt.NewInstance(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	out, err := in.Call("exports", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct{ Exports []string }
	json.Unmarshal(out, &ex)
	for _, name := range ex.Exports {
		_, served := edgeInputs[name]
		if served != slices.Contains(host.EdgeExports, name) {
			t.Errorf("export %q: served by /v1 is %v, but the isolation test has an input for it: %v (classify it in host.EdgeExports and in edgeInputs)", name, slices.Contains(host.EdgeExports, name), served)
		}
	}
}

// TestEdgeEffectsEndWithTheRequest runs every served export on a pool of one
// instance, each with an input that changes the memory, the units and the
// configuration, and checks after each that a request carrying no state sees
// exactly what it saw before anything ran: nothing of one request reaches the
// next. Catalog changes are refused (issue 17, item 2: one client's
// load_catalog changed every other user's ranking).
func TestEdgeEffectsEndWithTheRequest(t *testing.T) {
	ctx := context.Background()
	cat, err := os.ReadFile("../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{}))
	defer srv.Close()

	probe := func() string {
		var all []string
		for _, p := range []struct{ export, input string }{
			{"export_state", ``},
			{"get_memory", `{}`},
			{"rank", `{"candidates":["a","b","c","d","e"]}`},
			{"select_slate", `{"query":"pottery","budget":100}`},
		} {
			code, body := post(t, srv.URL+"/v1/"+p.export, host.EdgeRequest{Input: json.RawMessage(p.input)})
			if code != 200 {
				t.Fatalf("probe %s: %d %s", p.export, code, body)
			}
			all = append(all, string(body))
		}
		return strings.Join(all, "\n")
	}
	// Every request starts from a memory with events, chunks and units.
	e := engine.New()
	for _, step := range []struct{ export, input string }{
		{"record", edgeInputs["record"]},
		{"apply_ops", `{"now":300,"ops":[{"op":"extract","category":"genre","text":"Enjoys puzzles","strength":0.8}]}`},
		{"add_units", `{"units":[{"id":"t0","session":"s0","speaker":"Ben","text":"marathon on Sunday"}]}`},
	} {
		if _, err := e.Call(step.export, []byte(step.input)); err != nil {
			t.Fatal(err)
		}
	}
	doc, _ := e.Call("export_state", nil)
	before := probe()
	for _, name := range host.EdgeExports {
		in := edgeInputs[name]
		req := host.EdgeRequest{State: host.PackState(doc), Tag: host.StateTag(doc)}
		if in != "" {
			req.Input = json.RawMessage(in)
		}
		code, body := post(t, srv.URL+"/v1/"+name, req)
		if code != 200 {
			t.Fatalf("%s: %d %s", name, code, body)
		}
		if after := probe(); after != before {
			t.Fatalf("after /v1/%s, a request without state sees something else:\nbefore %s\nafter  %s", name, before, after)
		}
	}
	injected := `{"format":"recmem.catalog","version":1,"dataset":"evil","meta_names":["title"],"dim":1,"seq_dim":1,"items":[{"id":"zz","meta":["Buy Me"],"pop":1000000,"factor":[1],"bias":9,"seq_context":[1],"seq_factor":[1],"seq_bias":9}]}`
	for _, name := range []string{"load_catalog", "import_state"} {
		code, body := post(t, srv.URL+"/v1/"+name, host.EdgeRequest{Input: json.RawMessage(injected)})
		var e host.EdgeError
		json.Unmarshal(body, &e)
		if code != http.StatusForbidden || !strings.Contains(e.Error.Message, "not served") {
			t.Fatalf("/v1/%s: %d %s", name, code, body)
		}
	}
	if after := probe(); after != before {
		t.Fatalf("after load_catalog, a request sees something else:\nbefore %s\nafter  %s", before, after)
	}
}
