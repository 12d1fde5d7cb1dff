package vrs

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/wire"
)

// Routes is the vrs route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// folders.go
		"vrs.program_folder.list":   m.folderList,
		"vrs.program_folder.create": m.folderCreate,
		"vrs.program_folder.update": m.folderUpdate,
		"vrs.program_folder.delete": m.folderDelete,
		// live.go
		"vrs.liveroom.list": m.liveList,
		"vrs.resroom.list":  m.resList,
		// login.go
		"vrs.login":     m.login,
		"vrs.login.get": m.login,
		// playrooms.go
		"vrs.playroom.list": m.playRoomList,
		"vrs.playroom.create": func(ctx context.Context, r *api.Request) (wire.Object, error) {
			return m.roomCreate(ctx, r, kindPlayRoom, MaxPlayRooms, CodePlayRoomLimit)
		},
		"vrs.playroom.update":     m.ofKind(m.roomModify, kindPlayRoom),
		"vrs.playroom.delete":     m.ofKind(m.roomDelete, kindPlayRoom),
		"vrs.playroom.startplay":  m.playAction(playStart),
		"vrs.playroom.stopplay":   m.playAction(playStop),
		"vrs.playroom.pauseplay":  m.playAction(playPause),
		"vrs.playroom.resumeplay": m.playAction(playResume),
		// programs.go
		"vrs.program.list":                 m.programList,
		"vrs.program.delete":               capped("prgdelpckinfo", m.programDelete),
		"vrs.program_release_batch.update": capped("info", m.programRelease),
		"vrs.program_to_folder.move":       capped("prginfo", m.programMove),
		// recrooms.go
		"vrs.recroom.list":      m.recRoomList,
		"vrs.recroom.create":    m.recRoomCreate,
		"vrs.recroom.update":    m.ofKind(m.roomModify, kindRecRoom),
		"vrs.recroom.delete":    m.ofKind(m.roomDelete, kindRecRoom),
		"vrs.recroom.startrec":  m.recRoomAction(m.startRec),
		"vrs.recroom.stoprec":   m.recRoomAction(m.stopRec),
		"vrs.recroom.pauserec":  m.recRoomAction(m.pauseRec),
		"vrs.recroom.resumerec": m.recRoomAction(m.resumeRec),
		"vrs.recroom.startlive": m.recRoomAction(m.startLive),
		"vrs.recroom.stoplive":  m.recRoomAction(m.stopLive),
		// transcode.go
		"vrs.transtask.list":    m.taskList,
		"vrs.transtask.create":  capped("addparams", m.taskCreate),
		"vrs.transtask.operate": capped("operateparams", m.taskOperate),
		// vrsip.go
		"vrs.vrsip.get": m.vrsIP,
	}
}

// ofKind binds a handler of both kinds of rooms to one kind.
func (m *Module) ofKind(h func(context.Context, *api.Request, string) (wire.Object, error), kind string) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) { return h(ctx, r, kind) }
}
