package slate

import "testing"

func TestRelativeDate(t *testing.T) {
	at := func(s string) int64 {
		v, err := ParseTime(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// 8 May 2023 is a Monday, 7 May a Sunday, 17 July a Monday.
	for _, c := range []struct {
		text, day    string
		phrase, when string
		ok           bool
	}{
		{"I went to the lake yesterday!", "2023-05-08", "yesterday", "7 May 2023", true},
		{"The day before yesterday we met.", "2023-05-08", "the day before yesterday", "6 May 2023", true},
		{"Tonight is the concert.", "2023-05-08", "tonight", "8 May 2023", true},
		{"Last week I signed up.", "2023-05-08", "last week", "the week of 1 May 2023", true},
		{"Next week it starts.", "2023-05-07", "next week", "the week of 8 May 2023", true},
		{"We went camping last weekend.", "2023-05-08", "last weekend", "the weekend of 6 May 2023", true},
		{"Camping two weekends ago was great.", "2023-07-17T14:31:00Z", "two weekends ago", "the weekend of 8 July 2023", true},
		{"We moved last month.", "2023-05-31", "last month", "April 2023", true},
		{"I quit 3 years ago.", "2023-05-08", "3 years ago", "2020", true},
		{"It was a couple of weeks ago.", "2023-05-08", "a couple of weeks ago", "the week of 24 April 2023", true},
		{"See you next Saturday.", "2023-05-08", "next saturday", "13 May 2023", true},
		{"Last Friday was fun.", "2023-05-08", "last friday", "5 May 2023", true},
		{"Ages ago, long before.", "2023-05-08", "", "", false},
		{"ago", "2023-05-08", "", "", false},
		{"I love pottery.", "2023-05-08", "", "", false},
	} {
		got, ok := relativeDate(c.text, at(c.day))
		if ok != c.ok || got.phrase != c.phrase || got.when != c.when {
			t.Errorf("relativeDate(%q, %s) = %+v, %v; want {%s %s}, %v", c.text, c.day, got, ok, c.phrase, c.when, c.ok)
		}
	}
}

func TestOrdinalAndQuoteList(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
	if got := quoteList([]string{"a", "b", "c"}); got != "“a”, “b” and “c”" {
		t.Errorf("quoteList = %s", got)
	}
	if got := quoteList([]string{"a"}); got != "“a”" {
		t.Errorf("quoteList = %s", got)
	}
}

// TestRelativeDateWordsAreTimeWords: why reads a unit for a relative date
// only when it holds a time word, so every word a phrase starts from must be
// one.
func TestRelativeDateWordsAreTimeWords(t *testing.T) {
	for _, w := range []string{"yesterday", "tomorrow", "tonight", "last", "next", "ago"} {
		if !timeWords[w] {
			t.Errorf("%q is not in timeWords", w)
		}
	}
}

func TestAppendStrongest(t *testing.T) {
	for _, c := range []struct {
		in   Values
		want string
	}{
		{Values{{Name: "bm25", Value: 0.5}, {Name: "dense", Value: 2}, {Name: "recency", Value: -3}}, "Signals that counted most for it: its meaning close to the question's (sentence vectors); the question's rarer words in it (BM25). "},
		// Ties by name; only positive contributions count.
		{Values{{Name: "opening", Value: 1}, {Name: "length", Value: 1}, {Name: "coverage", Value: 1}}, "Signals that counted most for it: how much of the question it covers; its length. "},
		{Values{{Name: "bm25", Value: 0.5}, {Name: "dense", Value: 0}}, "Signals that counted most for it: the question's rarer words in it (BM25). "},
		{Values{{Name: "bm25", Value: -1}}, ""},
		{nil, ""},
	} {
		if got := string(appendStrongest(nil, c.in)); got != c.want {
			t.Errorf("appendStrongest(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
