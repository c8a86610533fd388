package host_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/seal"
)

var sealKey = []byte("0123456789abcdef0123456789abcdef-test-key")

// forge is the integrator's attack on a state document (issue 17, item 7):
// flip a chunk's polarity and compute the checksum again, which anyone can.
func forge(t *testing.T, doc []byte) []byte {
	t.Helper()
	re := regexp.MustCompile(`,"checksum":"sha256:[0-9a-f]{64}"`)
	canonical := re.ReplaceAll(doc, nil)
	flipped := bytes.Replace(canonical, []byte(`"polarity":"likes"`), []byte(`"polarity":"avoids"`), 1)
	if bytes.Equal(flipped, canonical) {
		t.Fatal("no chunk to flip")
	}
	sum := sha256.Sum256(flipped)
	v := `"version":` + strconv.Itoa(engine.SchemaVersion)
	return bytes.Replace(flipped, []byte(v), []byte(v+`,"checksum":"sha256:`+hex.EncodeToString(sum[:])+`"`), 1)
}

// likedState is a memory with one "likes" chunk, exported by the native path
// of a client without a key.
func likedState(t *testing.T) []byte {
	t.Helper()
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	s, err := c.Session(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if _, err := s.Call(ctx, "apply_ops", []byte(`{"now":100,"ops":[{"op":"extract","category":"series","text":"Enjoys the Uncharted series","strength":0.9}]}`)); err != nil {
		t.Fatal(err)
	}
	doc, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestChecksumIsNotASeal: a forged document passes the checksum (it guards
// integrity only); a client holding a seal key refuses it, and refuses an
// unsealed document, while its own sealed exports round-trip.
func TestChecksumIsNotASeal(t *testing.T) {
	ctx := context.Background()
	doc := likedState(t)
	forged := forge(t, doc)

	plain, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close(ctx)
	s, err := plain.Session(ctx, forged)
	if err != nil {
		t.Fatalf("without a key the checksum alone cannot tell a forged document: %v", err)
	}
	s.Close(ctx)

	keyed, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, SealKey: sealKey})
	if err != nil {
		t.Fatal(err)
	}
	defer keyed.Close(ctx)
	if _, err := keyed.Session(ctx, forged); !errors.Is(err, seal.ErrUnsealed) {
		t.Fatalf("an unsealed document: %v", err)
	}
	s, err = keyed.Session(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Export(ctx)
	s.Close(ctx)
	if err != nil || !bytes.HasPrefix(sealed, []byte(seal.Prefix)) {
		t.Fatalf("a keyed client's export is sealed: %.80s %v", sealed, err)
	}
	s, err = keyed.Session(ctx, sealed)
	if err != nil {
		t.Fatalf("its own sealed export: %v", err)
	}
	s.Close(ctx)
	// Re-sealed: the attacker cannot compute the seal without the key.
	resealed := append([]byte(seal.Sum([]byte("another key, guessed or stolen elsewhere"), forged)+"\n"), forged...)
	if _, err := keyed.Session(ctx, resealed); !errors.Is(err, seal.ErrMismatch) {
		t.Fatalf("a re-sealed document: %v", err)
	}
	if _, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, SealKey: []byte("short")}); err == nil {
		t.Fatal("a 5-byte key was accepted")
	}
}

// TestEdgeSeal: a server with a seal key tags states with their seal and
// refuses a state whose tag is a plain checksum (unsealed) or does not
// match (re-sealed, forged), with 422.
func TestEdgeSeal(t *testing.T) {
	ctx := context.Background()
	cat, _ := os.ReadFile("../testdata/catalog/tiny.json")
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, Catalog: cat, SealKey: sealKey})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{}))
	defer srv.Close()
	code, body := post(t, srv.URL+"/v1/apply_ops", host.EdgeRequest{Input: json.RawMessage(`{"now":100,"ops":[{"op":"extract","category":"series","text":"Enjoys the Uncharted series","strength":0.9}]}`)})
	var r host.EdgeResponse
	json.Unmarshal(body, &r)
	if code != 200 || !strings.HasPrefix(r.Tag, seal.Prefix) {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{State: r.State, Tag: r.Tag}); code != 200 {
		t.Fatalf("its own sealed state: %d %s", code, body)
	}
	doc, _ := host.UnpackState(r.State, 1<<20)
	forged := forge(t, doc)
	for name, req := range map[string]host.EdgeRequest{
		"unsealed (a plain checksum tag)": {State: host.PackState(forged), Tag: host.StateTag(forged)},
		"re-sealed with another key":      {State: host.PackState(forged), Tag: seal.Sum([]byte("another key"), forged)},
		"forged under the old tag":        {State: host.PackState(forged), Tag: r.Tag},
	} {
		code, body := post(t, srv.URL+"/v1/get_memory", req)
		var e host.EdgeError
		json.Unmarshal(body, &e)
		if code != 422 || !strings.HasPrefix(e.Error.Message, "tag: ") {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
}
