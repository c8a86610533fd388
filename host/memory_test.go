package host

import "testing"

func TestSliceMemory(t *testing.T) {
	m := &sliceMemory{max: 100}
	if b := m.Reallocate(10); len(b) != 10 || cap(b) != 10 {
		t.Fatalf("first: len %d cap %d", len(b), cap(b))
	}
	m.buf[3] = 7
	b := m.Reallocate(15) // doubles the capacity, keeps the contents
	if len(b) != 15 || cap(b) != 20 || b[3] != 7 {
		t.Fatalf("grow: len %d cap %d b[3] %d", len(b), cap(b), b[3])
	}
	if b := m.Reallocate(90); len(b) != 90 || cap(b) != 90 || b[3] != 7 {
		t.Fatalf("grow to nearly max: len %d cap %d", len(b), cap(b))
	}
	if b := m.Reallocate(101); b != nil {
		t.Fatal("grew past max")
	}
}

func TestMemoryAllocator(t *testing.T) {
	a := memoryAllocator()
	if a == nil {
		t.Skip("no mapped memory on this system")
	}
	m := a.Allocate(0, 1<<20)
	b := m.Reallocate(64 << 10)
	if len(b) != 64<<10 || b[100] != 0 {
		t.Fatalf("len %d", len(b))
	}
	b[100] = 9
	b2 := m.Reallocate(1 << 20)
	if len(b2) != 1<<20 || &b2[0] != &b[0] || b2[100] != 9 {
		t.Fatal("growing moved or lost the memory")
	}
	if m.Reallocate(1<<20+1) != nil {
		t.Fatal("grew past max")
	}
	m.Free()
}
