package mc

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/shape"
)

// BenchmarkTemplateListItem compares the two ways of writing a stored
// personal template (five participants) as an item of the template list:
// decoding it into a map and projecting that with the reply schema (map,
// the way before issue 40, still the way of the kinds stored as maps) and
// decoding it into the generated item (typed, the way now).
func BenchmarkTemplateListItem(b *testing.B) {
	var members []any
	for i := 0; i < 5; i++ {
		members = append(members, map[string]any{"name": "m" + strconv.Itoa(i), "account": "100" + strconv.Itoa(i),
			"account_type": 5, "bitrate": 2048, "protocol": 0})
	}
	data, err := shape.Encode(map[string]any{"template_id": "9000001", "name": "weekly", "bitrate": 2048, "closed_conf": 0,
		"safe_conf": 0, "password": "", "encrypted_type": 0, "conf_type": 0, "call_mode": 2, "call_times": 0, "call_interval": 20,
		"mute": 0, "silence": 0, "video_quality": 0, "one_reforming": 0, "dual_mode": 0, "voice_activity_detection": 0,
		"cascade_mode": 0, "cascade_upload": 0, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0,
		"max_join_mt": 192, "auto_end": 0, "preoccupy_resource": 0, "duration": 240, "bind_e164": 1, "e164": "1234567",
		"resolution": 12, "video_formats": []any{map[string]any{"format": 5, "resolution": 12, "frame": 30, "bitrate": 2048}},
		"invite_members": members, "vips": []any{}, "audio_formats": []any{1, 2}})
	if err != nil {
		b.Fatal(err)
	}
	ep, _ := catalog.Lookup("mc.personal_templates.list")
	fields := shape.Elem(ep.Reply, "personal_templates")
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			d, err := shape.Decode(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = shape.Project(d, fields)
		}
	})
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var x model.MCPersonalTemplatesListReplyPersonalTemplate
			if err := json.Unmarshal(data, &x); err != nil {
				b.Fatal(err)
			}
			_ = x.Wire()
		}
	})
}
