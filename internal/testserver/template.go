package testserver

import "github.com/confer-platform/confer/internal/model"

// Template is a personal template with every required parameter of
// reference 04 "创建个人模板" (mc.personal_templates.create), for tests
// that need one; callers change the fields they care about.
func Template(name string) model.MCPersonalTemplatesCreateRequest {
	return model.MCPersonalTemplatesCreateRequest{
		Name: name, Bitrate: 1024, CallMode: 2, CallTimes: 3, CallInterval: 20,
		DualMode: 1, CascadeMode: 1, CascadeUpload: 1, MaxJoinMt: 8,
		VideoFormats: []model.MCPersonalTemplatesCreateRequestVideoFormat{{Format: 4, Resolution: 12, Frame: 30, Bitrate: 1024}},
	}
}
