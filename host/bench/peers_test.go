package bench

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestPeerSelect(t *testing.T) {
	var p map[string]any
	// bleve reports a number per size, the JavaScript host an object.
	json.Unmarshal([]byte(`{"select_ms":{"100":1.5,"500":{"median":2.25,"p90":3},"2000":{"p90":3},"10000":"x"}}`), &p)
	tests := []struct {
		n    string
		want float64
	}{
		{"100", 1.5},
		{"500", 2.25},
		{"2000", 0},  // no median
		{"10000", 0}, // neither a number nor an object
		{"7", 0},     // not measured
	}
	for _, tt := range tests {
		if got := peerSelect(p, tt.n); got != tt.want {
			t.Errorf("peerSelect(%s) = %v, want %v", tt.n, got, tt.want)
		}
	}
	if got := peerSelect(map[string]any{"error": "no node"}, "100"); got != 0 {
		t.Errorf("a failed peer: %v", got)
	}
}

func TestPeerRatios(t *testing.T) {
	var peers, node map[string]any
	json.Unmarshal([]byte(`{"bleve":{"select_ms":{"500":0.5}},"orama":{"select_ms":{"500":{"median":8}}}}`), &peers)
	json.Unmarshal([]byte(`{"select_ms":{"500":{"median":2}}}`), &node)
	rep := &Report{SelectMs: map[string]float64{"500": 1.5}, Peers: peers, Node: node, Ratios: map[string]float64{}}
	peerRatios(rep, "500")
	// 1.5 / 0.5 = 3 and 2 / 8 = 0.25.
	want := map[string]float64{"recmem_wasm_over_bleve_500": 3, "recmem_js_over_orama_500": 0.25}
	if !reflect.DeepEqual(rep.Ratios, want) {
		t.Errorf("ratios %v, want %v", rep.Ratios, want)
	}
	rep = &Report{SelectMs: map[string]float64{"500": 1.5}, Peers: map[string]any{"bleve": map[string]any{"error": "x"}}, Ratios: map[string]float64{}}
	if peerRatios(rep, "500"); len(rep.Ratios) != 0 {
		t.Errorf("a failed peer gave ratios %v", rep.Ratios)
	}
}
