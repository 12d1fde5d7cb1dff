package testserver

// Template is a personal template with every required parameter of
// reference 04 "创建个人模板" (mc.personal_templates.create), for tests
// that need one; callers change the fields they care about.
func Template(name string) map[string]any {
	return map[string]any{
		"name": name, "bitrate": 1024, "closed_conf": 0, "safe_conf": 0, "encrypted_type": 0, "conf_type": 0,
		"call_mode": 2, "call_times": 3, "call_interval": 20, "mute": 0, "silence": 0, "video_quality": 0,
		"one_reforming": 0, "dual_mode": 1, "voice_activity_detection": 0, "cascade_mode": 1,
		"cascade_upload": 1, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0,
		"max_join_mt": 8, "auto_end": 0, "preoccupy_resource": 0, "bind_e164": 0,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
	}
}
