package bench

import "testing"

func TestModelName(t *testing.T) {
	tests := []struct{ cpuinfo, want string }{
		{"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nflags\t: fpu\n\nprocessor\t: 1\nmodel name\t: second\n",
			"Intel(R) Xeon(R) CPU @ 2.20GHz"}, // the first; "model" alone is not it
		{"processor : 0\nBogoMIPS : 50.00\n", ""}, // no model name (some ARM kernels)
		{"", ""},
	}
	for _, tt := range tests {
		if got := modelName(tt.cpuinfo); got != tt.want {
			t.Errorf("modelName(%q) = %q, want %q", tt.cpuinfo, got, tt.want)
		}
	}
}
