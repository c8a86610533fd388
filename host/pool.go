package host

import (
	"context"
	"runtime"
)

// Pool keeps ready instances of one Runtime for stateless use, where every
// request brings its own state (import_state or reset) before anything else.
// Instances hold assets loaded into them (a catalog, for example) across uses,
// but never a user's memory: Release resets an instance before it is reused.
// A Pool is safe for concurrent use.
type Pool struct {
	rt   *Runtime
	idle chan *Instance
	sem  chan struct{}
	// init prepares each new instance (for example, loads a catalog).
	init func(context.Context, *Instance) error
}

// NewPool returns a pool that runs at most size instances at once
// (size <= 0 means runtime.GOMAXPROCS(0), the number of usable cores).
func (r *Runtime) NewPool(size int) *Pool {
	if size <= 0 {
		size = runtime.GOMAXPROCS(0)
	}
	return &Pool{rt: r, idle: make(chan *Instance, size), sem: make(chan struct{}, size)}
}

// Size is the most instances the pool runs at once.
func (p *Pool) Size() int { return cap(p.sem) }

// Acquire waits for a free slot and returns an instance: an idle one, or a new
// one. It returns ctx's error if the context ends first.
func (p *Pool) Acquire(ctx context.Context) (*Instance, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case in := <-p.idle:
		return in, nil
	default:
	}
	in, err := p.rt.NewInstance(ctx)
	if err == nil && p.init != nil {
		if err = p.init(ctx, in); err != nil {
			in.Close(ctx)
		}
	}
	if err != nil {
		<-p.sem
		return nil, err
	}
	return in, nil
}

// Release returns an instance to the pool. It wipes the user's state first
// (the reset export). An instance is closed instead of kept when the caller
// marks it broken, when a call on it trapped (it must never run again: see
// TrapError), when its reset fails, or when its linear memory has grown past
// the memory budget (Options.RecycleBytes): linear memory never shrinks, so
// an instance that once imported a large state would keep that much memory,
// and a heap that fragments over many requests would reach the page cap.
func (p *Pool) Release(ctx context.Context, in *Instance, broken bool) {
	defer func() { <-p.sem }()
	broken = broken || in.Trapped() || int64(in.MemoryBytes()) > p.rt.recycle
	if !broken {
		if _, err := in.CallContext(ctx, "reset", nil); err != nil {
			broken = true
		}
	}
	if broken {
		in.Close(ctx)
		return
	}
	select {
	case p.idle <- in:
	default:
		in.Close(ctx)
	}
}

// Close closes the idle instances. Instances still acquired are closed by
// their Release.
func (p *Pool) Close(ctx context.Context) {
	for {
		select {
		case in := <-p.idle:
			in.Close(ctx)
		default:
			return
		}
	}
}
