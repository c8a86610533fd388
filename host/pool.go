package host

import (
	"bytes"
	"container/list"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recmem/recmem/pkg/seal"
)

// Pool keeps ready instances of one Runtime for stateless use, where every
// request brings its own state (import_state or reset) before anything else.
// Instances hold assets loaded into them (a catalog, for example) across uses,
// but never a user's memory: Release resets an instance before it is reused.
// A Pool is safe for concurrent use.
//
// A pool may also keep a few instances warm: idle, still holding the state
// they served last, keyed by that state's tag (ReleaseState). AcquireState
// hands such an instance back to a request bringing the same bytes, which
// then skips importing them. The pool computes every tag itself from the
// bytes (Tag: their SHA-256, or their HMAC under SetTagKey's key) and never
// takes one from its caller: two requests meet on a warm instance only when
// they bring the same bytes, whoever sends them, so serving either from it
// gives what importing them would. The least recently used warm instance is
// reset (or closed) when a new one needs its place.
type Pool struct {
	rt   *Runtime
	idle chan *Instance
	sem  chan struct{}
	// init prepares each new instance (for example, loads a catalog).
	init func(context.Context, *Instance) error
	// key, when set, makes tags HMACs under it (seals) instead of SHA-256s.
	key []byte

	mu       sync.Mutex
	warm     map[string]*warmInstance
	lru      list.List // of *warmInstance, most recently used first
	warmCap  int
	hits     atomic.Int64
	misses   atomic.Int64
	evicted  atomic.Int64
	warmKept atomic.Int64
	// longest and growth are the longest an instance was held by one
	// caller (nanoseconds) and the most its memory grew meanwhile (bytes).
	longest atomic.Int64
	growth  atomic.Int64
}

// Usage is what the pool's instances went through, as the tests of issue 22
// measure it: the longest any was held by one caller, from the moment it
// was handed out to its return, and the most its linear memory grew in
// that time.
type Usage struct {
	LongestHold   time.Duration
	LargestGrowth int64
}

// Usage returns the pool's usage so far.
func (p *Pool) Usage() Usage {
	return Usage{time.Duration(p.longest.Load()), p.growth.Load()}
}

// out marks an instance handed out to a caller.
func (p *Pool) out(in *Instance) *Instance {
	in.takenAt, in.takenMem = time.Now(), in.MemoryBytes()
	return in
}

// back accounts for an instance returned by its caller.
func (p *Pool) back(in *Instance) {
	if in.takenAt.IsZero() {
		return
	}
	held, grew := int64(time.Since(in.takenAt)), int64(in.MemoryBytes()-in.takenMem)
	in.takenAt = time.Time{}
	for v := p.longest.Load(); held > v && !p.longest.CompareAndSwap(v, held); v = p.longest.Load() {
	}
	for v := p.growth.Load(); grew > v && !p.growth.CompareAndSwap(v, grew); v = p.growth.Load() {
	}
}

type warmInstance struct {
	tag  string
	in   *Instance
	doc  []byte // the state's bytes, when releaseHeld was given them
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

// SetTagKey makes the pool's tags the seals of the states under key (pkg/seal,
// "hmac-sha256:" and the hex HMAC-SHA-256) instead of their SHA-256, as the
// stateless API of a server with a seal key tags them. Call it before the
// pool is used.
func (p *Pool) SetTagKey(key []byte) { p.key = bytes.Clone(key) }

// newHash returns the hash that tags are made of: an HMAC under the pool's
// key, else SHA-256.
func (p *Pool) newHash() hash.Hash {
	if p.key != nil {
		return hmac.New(sha256.New, p.key)
	}
	return sha256.New()
}

// tagOf writes the tag of the bytes h has hashed.
func (p *Pool) tagOf(h hash.Hash) string {
	prefix := "sha256:"
	if p.key != nil {
		prefix = seal.Prefix
	}
	return prefix + hex.EncodeToString(h.Sum(nil))
}

// Tag is the tag the pool keys a state by: "sha256:" and the hex SHA-256 of
// its bytes, or with a tag key (SetTagKey) its seal. Cost: one pass over doc.
func (p *Pool) Tag(doc []byte) string {
	h := p.newHash()
	h.Write(doc)
	return p.tagOf(h)
}

// WarmStats counts warm hits and misses, the warm instances kept and those
// evicted for room.
type WarmStats struct {
	Hits, Misses, Kept, Evicted int64
}

// WarmStats returns the pool's counts so far.
func (p *Pool) WarmStats() WarmStats {
	return WarmStats{p.hits.Load(), p.misses.Load(), p.warmKept.Load(), p.evicted.Load()}
}

// AcquireState is Acquire for a request bringing the state doc: it returns
// the warm instance holding exactly those bytes and true when there is one
// (the caller must not import them again), else a reset instance and
// false. The pool tags doc itself (Tag). Cost: a pass over doc.
func (p *Pool) AcquireState(ctx context.Context, doc []byte) (*Instance, bool, error) {
	if doc == nil {
		in, err := p.Acquire(ctx)
		return in, false, err
	}
	return p.acquireTag(ctx, p.Tag(doc))
}

// acquireTag is AcquireState for a tag the host computed from the bytes
// itself (Tag, or a running hash of them).
func (p *Pool) acquireTag(ctx context.Context, tag string) (*Instance, bool, error) {
	in, _, err := p.takeWarm(ctx, tag)
	if err != nil || in != nil {
		return in, in != nil, err
	}
	in, err = p.Acquire(ctx)
	return in, false, err
}

// takeWarm returns the warm instance holding the state of tag and the bytes
// releaseHeld kept with it (nil when none), or no instance when none holds
// that state: unlike acquireTag, it never starts or resets one. A request
// naming its state by tag (the stateless API's base_tag) looks it up so.
func (p *Pool) takeWarm(ctx context.Context, tag string) (*Instance, []byte, error) {
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
		return p.out(w.in), w.doc, nil
	}
	p.misses.Add(1)
	<-p.sem
	return nil, nil, nil
}

// ReleaseState returns an instance that holds exactly the state doc (it
// imported doc, or exported it, and nothing changed since), to be kept warm
// under doc's tag (Tag). Give it only for bytes whose import gives this
// instance's state exactly; an instance that Release would close is closed,
// and with no warm room or another warm instance of the same state, it is
// released as Release does.
func (p *Pool) ReleaseState(ctx context.Context, in *Instance, doc []byte) {
	p.releaseHeld(ctx, in, p.Tag(doc), nil)
}

// releaseHeld is ReleaseState under a tag the host computed from the bytes
// itself, keeping doc, the state's bytes, with the warm instance (takeWarm
// returns them) when given, so that a request may name the state by its
// tag alone (docs/http.md, "Sending the tag instead of the state"). The
// pool keeps doc as given: the caller must not change it.
func (p *Pool) releaseHeld(ctx context.Context, in *Instance, tag string, doc []byte) {
	p.back(in)
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
		return p.out(in), nil
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
	return p.out(in), nil
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
	p.back(in)
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
