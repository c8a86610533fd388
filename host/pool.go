package host

import (
	"container/list"
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool keeps ready instances of one Runtime for stateless use, where every
// request brings its own state (import_state or reset) before anything else.
// Instances hold assets loaded into them (a catalog, for example) across uses,
// but never a user's memory: Release resets an instance before it is reused.
// A Pool is safe for concurrent use.
//
// A pool may also keep a few instances warm: idle, still holding the state
// they served last, keyed by that state's tag (ReleaseWarm). AcquireTag
// hands such an instance back to a request carrying the same tag, which then
// skips importing its state. The tag must name the whole state, byte for
// byte (a SHA-256 or a seal of the document): two requests with one tag
// bring the same state, whoever sends them, so serving either from the warm
// instance gives what importing it would. The least recently used warm
// instance is reset (or closed) when a new one needs its place.
type Pool struct {
	rt   *Runtime
	idle chan *Instance
	sem  chan struct{}
	// init prepares each new instance (for example, loads a catalog).
	init func(context.Context, *Instance) error

	mu       sync.Mutex
	warm     map[string]*warmInstance
	lru      list.List // of *warmInstance, most recently used first
	warmCap  int
	hits     atomic.Int64
	misses   atomic.Int64
	evicted  atomic.Int64
	warmKept atomic.Int64
}

type warmInstance struct {
	tag  string
	in   *Instance
	doc  []byte // the state's bytes, when ReleaseHeld was given them
	elem *list.Element
}

// NewPool returns a pool that runs at most size instances at once
// (size <= 0 means runtime.GOMAXPROCS(0), the number of usable cores), and
// keeps no instance warm (SetWarm).
func (r *Runtime) NewPool(size int) *Pool {
	if size <= 0 {
		size = runtime.GOMAXPROCS(0)
	}
	return &Pool{rt: r, idle: make(chan *Instance, size), sem: make(chan struct{}, size), warm: map[string]*warmInstance{}}
}

// SetWarm sets how many instances the pool keeps warm (0: none). Call it
// before the pool is used.
func (p *Pool) SetWarm(n int) { p.warmCap = max(n, 0) }

// WarmStats counts AcquireTag's hits and misses, the warm instances kept
// by ReleaseWarm and those evicted for room.
type WarmStats struct {
	Hits, Misses, Kept, Evicted int64
}

// WarmStats returns the pool's counts so far.
func (p *Pool) WarmStats() WarmStats {
	return WarmStats{p.hits.Load(), p.misses.Load(), p.warmKept.Load(), p.evicted.Load()}
}

// AcquireTag is Acquire for a request bringing the state of tag: it returns
// the warm instance holding that state and true when there is one (the
// caller must not import the state again), else a reset instance and false.
func (p *Pool) AcquireTag(ctx context.Context, tag string) (*Instance, bool, error) {
	in, _, warm, err := p.AcquireHeld(ctx, tag)
	return in, warm, err
}

// AcquireHeld is AcquireTag that also returns the bytes of the state the
// warm instance holds, as ReleaseHeld was given them (nil when it was not).
func (p *Pool) AcquireHeld(ctx context.Context, tag string) (*Instance, []byte, bool, error) {
	in, doc, err := p.TakeWarm(ctx, tag)
	if err != nil || in != nil {
		return in, doc, in != nil, err
	}
	in, err = p.Acquire(ctx)
	return in, nil, false, err
}

// TakeWarm returns the warm instance holding the state of tag and the bytes
// ReleaseHeld kept with it (nil when none), or no instance when none holds
// that state: unlike AcquireHeld, it never starts or resets one.
func (p *Pool) TakeWarm(ctx context.Context, tag string) (*Instance, []byte, error) {
	if tag == "" || p.warmCap == 0 {
		return nil, nil, nil
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	p.mu.Lock()
	w := p.warm[tag]
	if w != nil {
		delete(p.warm, tag)
		p.lru.Remove(w.elem)
	}
	p.mu.Unlock()
	if w != nil {
		p.hits.Add(1)
		return w.in, w.doc, nil
	}
	p.misses.Add(1)
	<-p.sem
	return nil, nil, nil
}

// ReleaseWarm returns an instance that holds the state of tag, unchanged
// since it was imported or exported, to be kept warm under that tag. An
// instance that Release would close is closed; with no warm room, another
// instance with the same tag, or no tag, it is released as Release does.
func (p *Pool) ReleaseWarm(ctx context.Context, in *Instance, tag string) {
	p.ReleaseHeld(ctx, in, tag, nil)
}

// ReleaseHeld is ReleaseWarm that keeps doc, the bytes of the state of tag,
// with the warm instance (AcquireHeld returns them), so that a request may
// name the state by its tag alone (docs/http.md, "Sending the tag instead
// of the state"). The pool keeps doc as given: the caller must not change it.
func (p *Pool) ReleaseHeld(ctx context.Context, in *Instance, tag string, doc []byte) {
	if tag == "" || p.warmCap == 0 || in.Trapped() || int64(in.MemoryBytes()) > p.rt.recycle {
		p.Release(ctx, in, false)
		return
	}
	p.mu.Lock()
	if p.warm[tag] != nil {
		p.mu.Unlock()
		p.Release(ctx, in, false) // one warm instance per state is enough
		return
	}
	w := &warmInstance{tag: tag, in: in, doc: doc}
	w.elem = p.lru.PushFront(w)
	p.warm[tag] = w
	var old *warmInstance
	if p.lru.Len() > p.warmCap {
		old = p.lru.Remove(p.lru.Back()).(*warmInstance)
		delete(p.warm, old.tag)
	}
	p.mu.Unlock()
	p.warmKept.Add(1)
	<-p.sem
	if old != nil {
		p.evicted.Add(1)
		p.retire(ctx, old.in)
	}
}

// retire resets an instance no request holds and keeps it idle, or closes
// it when the idle queue is full or the reset fails.
func (p *Pool) retire(ctx context.Context, in *Instance) {
	if _, err := in.CallContext(ctx, "reset", nil); err != nil {
		in.Close(ctx)
		return
	}
	select {
	case p.idle <- in:
	default:
		in.Close(ctx)
	}
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
	p.mu.Lock()
	for tag, w := range p.warm {
		delete(p.warm, tag)
		w.in.Close(ctx)
	}
	p.lru.Init()
	p.mu.Unlock()
	for {
		select {
		case in := <-p.idle:
			in.Close(ctx)
		default:
			return
		}
	}
}
