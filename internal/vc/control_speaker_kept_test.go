package vc_test

import (
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A change of speaker starts from the conference as this node last wrote
// it, reading nothing (control_speaker.go, ctlUpdateGuarded). Another
// node's changes in between must neither be lost nor be answered from
// the kept document: the write holds only on the kept version, and
// anything else reads again.
func TestSpeakerAfterAnotherNodesChange(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		node := ctSecondNode(env)
		k := ctStart(t, env, c, 2, 0, nil)
		set := func(mt string) int {
			return k.c.Do("PUT", k.path("/speaker"), testserver.Params(t, map[string]any{"mt_id": mt})).Code()
		}
		other := func(change func(c *engine.Conference)) { // the second node changes the document
			t.Helper()
			ctx := context.Background()
			conf, err := node.confs.Get(ctx, k.domain, k.id, engine.StateRunning)
			if err != nil {
				t.Fatal(err)
			}
			change(&conf)
			if err := node.confs.Update(ctx, conf); err != nil {
				t.Fatal(err)
			}
		}
		if code := set("1"); code != -1 {
			t.Fatalf("first speaker: %d", code)
		}

		// Voice activation turned on elsewhere: no speaker may be set,
		// though the kept document says it is off.
		other(func(c *engine.Conference) { c.SetVoiceActivityDetection(1) })
		if code := set("2"); code != 20346 {
			t.Fatalf("speaker under another node's voice activation: %d, want 20346", code)
		}
		cfSame(t, "speaker kept", k.get(t, "/speaker")["mt_id"], "1")

		// Another node's other changes survive this node's next change.
		other(func(c *engine.Conference) {
			c.SetVoiceActivityDetection(0)
			c.SetMember("speaker", "2")
			c.SetMember("subject_of_test", "kept")
		})
		if code := set("1"); code != -1 {
			t.Fatalf("speaker after another node's change: %d", code)
		}
		cfSame(t, "speaker", k.get(t, "/speaker")["mt_id"], "1")
		conf, err := node.confs.Get(context.Background(), k.domain, k.id, engine.StateRunning)
		if err != nil {
			t.Fatal(err)
		}
		if doc := conf.Document(); doc["subject_of_test"] != "kept" || ctNum(doc["voice_activity_detection"]) != 0 {
			t.Fatalf("another node's change lost: %v, voice activation %v", doc["subject_of_test"], doc["voice_activity_detection"])
		}

		// A terminal that left on another node: 20401, not a stored role.
		node.hangup(t, k, "2")
		if code := set("2"); code != 20401 {
			t.Fatalf("speaker of a terminal hung up elsewhere: %d, want 20401", code)
		}
		cfSame(t, "speaker after the refusal", k.get(t, "/speaker")["mt_id"], "1")
	})
}
