package mc

import "github.com/confer-platform/confer/internal/api"

// Routes is the mc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// areas.go
		"mc.meeting_room_areas.list":   m.areaList,
		"mc.meeting_room_areas.create": m.areaCreate,
		"mc.meeting_room_areas.update": m.areaUpdate,
		"mc.meeting_room_areas.delete": m.areaDelete,
		// booked.go
		"mc.booked_confs.list": m.listBooked,
		"mc.booked_confs.get":  m.getBooked,
		// confs.go
		"mc.confs.create": m.createConf,
		"mc.confs.delete": m.endConf,
		// files.go
		"mc.meeting_files.upload": m.fileUpload,
		"mc.meeting_files.list":   m.fileList,
		"mc.meeting_files.delete": m.fileDelete,
		// history.go
		"mc.history.list": m.listHistory,
		"mc.history.get":  m.getHistory,
		// resources.go
		"mc.resources.list": m.listResources,
		"mc.platforms.list": m.listPlatforms,
		// rooms.go
		"mc.virtual_meeting_rooms.list":   m.roomList,
		"mc.virtual_meeting_rooms.get":    m.roomGet,
		"mc.virtual_meeting_rooms.create": m.roomCreate,
		"mc.virtual_meeting_rooms.update": m.roomUpdate,
		"mc.virtual_meeting_rooms.delete": m.roomDelete,
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
		"mc.personal_templates.simple.get":          m.tplSimple,
		"mc.personal_templates.invite_members.list": m.tplInviteMembers(),
		"mc.personal_templates.vip.get":             m.tplVIPs(),
		"mc.personal_templates.mix.get":             m.tplMix(),
		"mc.personal_templates.vmp.get":             m.tplVMP(),
		"mc.personal_templates.poll.get":            m.tplPoll(),
	}
}
