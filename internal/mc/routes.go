package mc

import "github.com/confer-platform/confer/internal/api"

// Routes is the mc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// areas.go
		"mc.meeting_room_areas.list":   api.Typed(m.areaList),
		"mc.meeting_room_areas.create": api.Typed(m.areaCreate),
		"mc.meeting_room_areas.update": api.Typed(m.areaUpdate),
		"mc.meeting_room_areas.delete": api.Typed(m.areaDelete),
		// booked.go
		"mc.booked_confs.list": api.Typed(m.listBooked),
		"mc.booked_confs.get":  m.getBooked,
		// confs.go
		"mc.confs.create": api.Typed(m.createConf),
		"mc.confs.delete": api.Typed(m.endConf),
		// files.go
		"mc.meeting_files.upload": api.Typed(m.fileUpload),
		"mc.meeting_files.list":   api.Typed(m.fileList),
		"mc.meeting_files.delete": api.Typed(m.fileDelete),
		// history.go
		"mc.history.list": api.Typed(m.listHistory),
		"mc.history.get":  api.Typed(m.getHistory),
		// resources.go
		"mc.resources.list": api.Typed(m.listResources),
		"mc.platforms.list": api.Typed(m.listPlatforms),
		// rooms.go
		"mc.virtual_meeting_rooms.list":   api.Typed(m.roomList),
		"mc.virtual_meeting_rooms.get":    api.Typed(m.roomGet),
		"mc.virtual_meeting_rooms.create": api.Typed(m.roomCreate),
		"mc.virtual_meeting_rooms.update": api.Typed(m.roomUpdate),
		"mc.virtual_meeting_rooms.delete": api.Typed(m.roomDelete),
		// templates.go
		"mc.personal_templates.list":   m.tplList(tplPersonal),
		"mc.personal_templates.get":    m.tplGet(tplPersonal),
		"mc.personal_templates.create": m.tplCreate(tplPersonal),
		"mc.personal_templates.update": m.tplUpdate(tplPersonal),
		"mc.personal_templates.delete": m.tplDelete(tplPersonal),
		"mc.public_templates.list":     m.tplList(tplPublic),
		"mc.public_templates.get":      m.tplGet(tplPublic),
		"mc.public_templates.create":   m.tplCreate(tplPublic),
		"mc.public_templates.update":   m.tplUpdate(tplPublic),
		"mc.public_templates.delete":   m.tplDelete(tplPublic),
		// templates_sub.go
		"mc.personal_templates.simple.get":          api.Typed(m.tplSimple),
		"mc.personal_templates.invite_members.list": m.tplInviteMembers(),
		"mc.personal_templates.vip.get":             m.tplVIPs(),
		"mc.personal_templates.mix.get":             m.tplMix(),
		"mc.personal_templates.vmp.get":             m.tplVMP(),
		"mc.personal_templates.poll.get":            m.tplPoll(),
	}
}
