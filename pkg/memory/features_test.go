package memory

import (
	"reflect"
	"strings"
	"testing"
)

// tp is a titleParts without its keys.
func tp(series, platform string, terms []string) titleParts {
	return titleParts{series: series, platform: platform, terms: terms}
}

func TestParseTitle(t *testing.T) {
	cases := []struct {
		title string
		want  titleParts
	}{
		{"Super Mario Odyssey - Nintendo Switch", tp("", "Nintendo Switch", []string{"Mario", "Mario Odyssey", "Odyssey"})},
		{"Fire Emblem: The Sacred Stones", tp("Fire Emblem", "", []string{"Sacred", "Sacred Stones", "Stones"})},
		// "60 Day Time Card" is noise and a number: nothing after "Reborn".
		{"Final Fantasy XIV: A Realm Reborn 60 Day Time Card", tp("Final Fantasy", "", []string{"Realm", "Realm Reborn", "Reborn"})},
		{"Rayman 3", tp("Rayman", "", nil)},
		{"Xbox One Wired Controller", tp("", "", []string{"Wired", "Wired Controller", "Controller"})},
		{"NBA 2K16 - PlayStation 4", tp("", "PlayStation 4", []string{"NBA"})},
		// The apostrophe stays in the words as written.
		{"Tom Clancy&rsquo;s Ghost Recon - Xbox One", tp("", "Xbox One", []string{
			"Tom", "Tom Clancy's", "Tom Clancy's Ghost", "Tom Clancy's Ghost Recon",
			"Clancy's", "Clancy's Ghost", "Clancy's Ghost Recon", "Ghost", "Ghost Recon", "Recon"})},
		// The edition segment is noise and ends the run.
		{"Assassin&rsquo;s Creed Syndicate - Gold Edition - Xbox One", tp("", "Xbox One", []string{
			"Assassin's", "Assassin's Creed", "Assassin's Creed Syndicate", "Creed", "Creed Syndicate", "Syndicate"})},
		// A number breaks a run: "Guild Wars" and "Heroic" are apart.
		{"Guild Wars 2 Heroic Edition [Download]", tp("", "", []string{"Guild", "Guild Wars", "Wars", "Heroic"})},
		{"The Library - Hidden Object Game [Download]", tp("", "", []string{"Library", "Hidden", "Hidden Object", "Object"})},
		{"LEGO Star Wars: The Force Awakens - PlayStation Vita Standard Edition", tp("LEGO Star Wars", "PlayStation Vita", []string{"Force", "Force Awakens", "Awakens"})},
		// "of" is a stop word: it ends a run.
		{"Life Together: The Classic Exploration of Christian Community", tp("Life Together", "", []string{
			"Classic", "Classic Exploration", "Exploration", "Christian", "Christian Community", "Community"})},
	}
	for _, c := range cases {
		got := parseTitle(c.title)
		got.keys = nil
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseTitle(%q)\n got %+v\nwant %+v", c.title, got, c.want)
		}
	}
}

func TestItemFeatures(t *testing.T) {
	meta := map[string][]string{
		"title":   {"Rayman 3 - PlayStation 2"},
		"genres":  {"Platformer|Action", "platformer"},
		"year":    {"2003"},
		"price":   {"19.99"},
		"Authors": {"Michel Ancel"},
	}
	derived := []feature{
		{"author", "michel ancel", "Michel Ancel", false},
		{"genre", "platformer", "Platformer", false},
		{"genre", "action", "Action", false},
		{"series", "rayman", "Rayman", true},
		{"platform", "playstation 2", "PlayStation 2", true},
		{"era", "2000s", "2000s", false},
	}
	if got := itemFeatures(meta, nil); !reflect.DeepEqual(got, derived) {
		t.Errorf("derived categories\n got %+v\nwant %+v", got, derived)
	}
	// MARS Books-style categories: fields map to their family, the rest to topic.
	cats := []string{"topic", "creator", "genre", "format", "era", "tone"}
	mapped := []feature{
		{"creator", "michel ancel", "Michel Ancel", false},
		{"genre", "platformer", "Platformer", false},
		{"genre", "action", "Action", false},
		{"topic", "rayman", "Rayman", true},
		{"format", "playstation 2", "PlayStation 2", true},
		{"era", "2000s", "2000s", false},
	}
	if got := itemFeatures(meta, cats); !reflect.DeepEqual(got, mapped) {
		t.Errorf("given categories\n got %+v\nwant %+v", got, mapped)
	}
	// Without a matching family or topic, a feature is dropped.
	if got := itemFeatures(meta, []string{"genre"}); len(got) != 2 {
		t.Errorf("genre only: %+v", got)
	}
}

func TestChunkText(t *testing.T) {
	cases := []struct{ cat, pol, label, want string }{
		{"series", "likes", "Mario", "Enjoys the Mario series"},
		{"genre", "avoids", "horror", "Avoids horror"},
		{"author", "likes", "Dietrich Bonhoeffer", "Enjoys work by Dietrich Bonhoeffer"},
		{"brand", "likes", "Nintendo", "Likes the Nintendo brand"},
		{"platform", "likes", "Nintendo DS", "Prefers Nintendo DS"},
		{"era", "likes", "1990s", "Enjoys titles from the 1990s"},
		{"topic", "avoids", "Churchill", "Not interested in Churchill"},
		{"color", "likes", "red", "Likes red (color)"},
		// An article of the label is not doubled by the template's.
		{"series", "likes", "The Legend of Zelda", "Enjoys The Legend of Zelda series"},
		{"brand", "avoids", "The Sims", "Avoids The Sims brand"},
		{"era", "likes", "1990s", "Enjoys titles from the 1990s"},
		{"series", "likes", "A", "Enjoys the A series"},
	}
	for _, c := range cases {
		if got := chunkText(c.cat, c.pol, c.label); got != c.want {
			t.Errorf("chunkText(%s, %s, %s) = %q, want %q", c.cat, c.pol, c.label, got, c.want)
		}
	}
	if got := keyFromText("Enjoys the Mario series"); got != "mario" {
		t.Errorf("keyFromText = %q", got)
	}
}

func TestItemFeaturesBounds(t *testing.T) {
	long := strings.Repeat("Very Long Genre Name ", 10)
	meta := map[string][]string{"genre": {long, "RPG"}, "!!!": {"x"}}
	got := itemFeatures(meta, nil)
	if len(got) != 1 || got[0].Key != "rpg" {
		t.Errorf("got %+v", got)
	}
	// Whatever the metadata, recording it never fails.
	s := New(Config{Batch: 1})
	if _, err := s.Record([]Signal{{User: "u", Item: "i", Action: "like", Meta: meta}}, Fixed{}, Policy{}); err != nil {
		t.Fatal(err)
	}
}

func TestSeriesKeyAndTitleCore(t *testing.T) {
	for _, c := range []struct {
		meta         map[string][]string
		series, core string
	}{
		{map[string][]string{"title": {"Halo 4 - Xbox 360"}}, "halo", "halo 4"},
		{map[string][]string{"title": {"Halo 4: Limited Edition [Xbox 360]"}}, "halo", "halo 4"},
		{map[string][]string{"title": {"Assassin's Creed Unity - Xbox One"}, "series": {"Assassin's Creed"}}, "assassins creed", "assassins creed unity"},
		{map[string][]string{"title": {"Fargo"}, "genre": {"Crime|Drama"}}, "", "fargo"},
	} {
		if got := SeriesKey(c.meta); got != c.series {
			t.Errorf("SeriesKey(%v) = %q, want %q", c.meta, got, c.series)
		}
		if got := TitleCore(c.meta["title"][0]); got != c.core {
			t.Errorf("TitleCore(%q) = %q, want %q", c.meta["title"][0], got, c.core)
		}
	}
}
