package vrs

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
)

// Routes is the vrs route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// folders.go
		"vrs.program_folder.list":   api.Typed(m.folderList),
		"vrs.program_folder.create": api.Typed(m.folderCreate),
		"vrs.program_folder.update": api.Done(m.folderUpdate),
		"vrs.program_folder.delete": api.Done(m.folderDelete),
		// live.go
		"vrs.liveroom.list": api.Typed(m.liveList),
		"vrs.resroom.list":  api.Typed(m.resList),
		// login.go
		"vrs.login":     api.Typed(m.login),
		"vrs.login.get": api.Typed(m.loginGet),
		// playrooms.go
		"vrs.playroom.list":       api.Typed(m.playRoomList),
		"vrs.playroom.create":     api.Typed(m.playRoomCreate),
		"vrs.playroom.update":     m.ofKind(m.roomModify, kindPlayRoom),
		"vrs.playroom.delete":     m.ofKind(m.roomDelete, kindPlayRoom),
		"vrs.playroom.startplay":  m.playAction(playStart),
		"vrs.playroom.stopplay":   m.playAction(playStop),
		"vrs.playroom.pauseplay":  m.playAction(playPause),
		"vrs.playroom.resumeplay": m.playAction(playResume),
		// programs.go
		"vrs.program.list":                 api.Typed(m.programList),
		"vrs.program.delete":               api.Typed(m.programDelete),
		"vrs.program_release_batch.update": api.Typed(m.programRelease),
		"vrs.program_to_folder.move":       api.Done(m.programMove),
		// recrooms.go
		"vrs.recroom.list":      api.Typed(m.recRoomList),
		"vrs.recroom.create":    api.Typed(m.recRoomCreate),
		"vrs.recroom.update":    m.ofKind(m.roomModify, kindRecRoom),
		"vrs.recroom.delete":    m.ofKind(m.roomDelete, kindRecRoom),
		"vrs.recroom.startrec":  m.recRoomAction(m.startRec),
		"vrs.recroom.stoprec":   m.recRoomAction(m.stopRec),
		"vrs.recroom.pauserec":  m.recRoomAction(m.pauseRec),
		"vrs.recroom.resumerec": m.recRoomAction(m.resumeRec),
		"vrs.recroom.startlive": m.recRoomAction(m.startLive),
		"vrs.recroom.stoplive":  m.recRoomAction(m.stopLive),
		// transcode.go
		"vrs.transtask.list":    api.Typed(m.taskList),
		"vrs.transtask.create":  api.Typed(m.taskCreate),
		"vrs.transtask.operate": api.Typed(m.taskOperate),
		// vrsip.go
		"vrs.vrsip.get": api.Typed(m.vrsIP),
	}
}

// ofKind binds a handler of both kinds of rooms to one kind.
func (m *Module) ofKind(h func(context.Context, *api.Request, string) error, kind string) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error { return h(ctx, r, kind) })
}
