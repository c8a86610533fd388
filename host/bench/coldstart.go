package bench

import (
	"context"
	"time"

	"github.com/recmem/recmem/host"
)

// coldStart times the module's way to its first answer into rep.ColdStart
// and rep.WarmStartMs: compiling without a cache, then with the warm cache in
// cacheDir; instantiating (the Go runtime's initialisation and a first call);
// and the first real answer (a unit added and a slate selected: the word
// vectors and the model are parsed on first use). It returns the runtime
// compiled with the warm cache, for the rest of the run; the caller closes it.
func coldStart(ctx context.Context, wasm []byte, cacheDir string, rep *Report) (*host.Runtime, error) {
	t0 := time.Now()
	rt, err := host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	rep.ColdStart["compile_nocache_ms"] = ms(time.Since(t0))
	rt.Close(ctx)
	t0 = time.Now()
	rt, err = host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	rep.ColdStart["compile_warm_cache_ms"] = ms(time.Since(t0))
	if err := firstAnswer(ctx, rt, rep); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	rep.WarmStartMs = round3(rep.ColdStart["compile_warm_cache_ms"] + rep.ColdStart["instantiate_ms"] + rep.ColdStart["first_answer_ms"])
	return rt, nil
}

// firstAnswer times a new instance of rt and its first answer.
func firstAnswer(ctx context.Context, rt *host.Runtime, rep *Report) error {
	t1 := time.Now()
	first, err := rt.NewInstance(ctx)
	if err != nil {
		return err
	}
	defer first.Close(ctx)
	rep.ColdStart["instantiate_ms"] = ms(time.Since(t1))
	t2 := time.Now()
	if _, err := first.Call("add_units", []byte(`{"units":[{"id":"u1","session":"s1","date":"2023-05-08","speaker":"Ana","text":"I moved my pottery class to Thursday."}]}`)); err != nil {
		return err
	}
	if _, err := first.Call("select_slate", []byte(`{"query":"When is the pottery class?","budget":2000}`)); err != nil {
		return err
	}
	rep.ColdStart["first_answer_ms"] = ms(time.Since(t2))
	return nil
}
