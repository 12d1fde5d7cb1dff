package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
)

// Routes is the vc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	conf, upload, chair := pollKinds[0], pollKinds[1], pollKinds[2]
	lc := newListCache(listCacheMax) // the list's reshaped items and bodies, per release (confs.go, confs_cache.go)
	return api.Routes{
		// cascades.go
		"vc.confs.cascades.list":     api.Typed(m.listCascades),
		"vc.confs.cascades.mts.list": api.Typed(m.listCascadeMts),
		"vc.confs.cascades.mts.add":  api.Typed(m.addCascadeMts),
		// confs.go
		"vc.confs.list": api.Done(func(ctx context.Context, r *api.Request) error {
			return m.listConfs(ctx, r, lc) // the reply's bytes in r.Raw
		}),
		"vc.confs.get": m.getConf,
		// control_dual.go
		"vc.confs.dualstream.get":    ctlGetRole(m, dualOf, dualReply),
		"vc.confs.dualstream.update": api.Done(m.setDualStream),
		"vc.confs.dualstream.delete": api.Done(m.cancelDualStream),
		// control_mute.go
		"vc.confs.silence.update": api.Done(m.setSilenceAll),
		"vc.confs.mute.update":    api.Done(m.setMuteAll),
		// control_settings.go
		"vc.confs.delay.update":          api.Done(m.delayConf),
		"vc.confs.safty.update":          api.Done(m.setSafety),
		"vc.confs.name.update":           api.Done(m.renameConf),
		"vc.confs.forcebroadcast.update": api.Done(m.setForceBroadcast),
		"vc.confs.dualmode.update":       api.Done(m.setDualMode),
		// control_sms.go
		"vc.confs.sms.send": api.Done(m.sendSMS),
		// control_speaker.go
		"vc.confs.chairman.get":    ctlGetRole(m, chairmanOf, chairmanReply),
		"vc.confs.chairman.update": api.Done(m.setChairman),
		"vc.confs.speaker.get":     ctlGetRole(m, speakerOf, speakerReply),
		"vc.confs.speaker.update":  api.Done(m.setSpeaker),
		// control_vad.go
		"vc.confs.vad.get":        api.Typed(m.getVAD),
		"vc.confs.vad.update":     api.Done(m.setVAD),
		"vc.confs.viplist.get":    api.Typed(m.getVIPs),
		"vc.confs.viplist.update": api.Done(m.setVIPs),
		// hdu.go
		"vc.confs.hdus.list":         api.Typed(m.listHDUs),
		"vc.confs.hdus.get":          api.Typed(m.getHDU),
		"vc.confs.hdus.create":       api.Done(m.startHDU),
		"vc.confs.hdus.delete":       api.Done(m.stopHDU),
		"vc.confs.hdus.alias.update": api.Done(m.setHDUAlias),
		// hdu_registry.go
		"vc.hdus.list": api.Typed(m.listPlatformHDUs),
		// hdu_manage.go
		"vc.tv_walls.create": api.Typed(m.registerWall),
		"vc.tv_walls.delete": api.Done(m.removeWall),
		// hdupoll.go
		"vc.confs.hdupoll.get":          api.Typed(m.getHDUPoll),
		"vc.confs.hdupoll.start":        api.Typed(m.startHDUPoll),
		"vc.confs.hdupoll.state.update": api.Done(m.setHDUPollState),
		// hduvmps.go
		"vc.confs.hduvmps.create": api.Done(m.startHDUVMP),
		"vc.confs.hduvmps.list":   api.Typed(m.listHDUVMPs),
		"vc.confs.hduvmps.get":    api.Typed(m.getHDUVMP),
		"vc.confs.hduvmps.update": api.Done(m.modifyHDUVMP),
		"vc.confs.hduvmps.delete": api.Done(m.stopHDUVMP),
		// inspect.go
		"vc.confs.inspections.list":           api.Typed(m.inspectList),
		"vc.confs.inspections.create":         api.Done(m.inspectStart),
		"vc.confs.inspections.delete":         api.Done(m.inspectCancel),
		"vc.confs.inspection_channels.list":   api.Typed(m.inspectChannelList),
		"vc.confs.inspection_channels.create": api.Done(m.inspectStart),
		"vc.confs.inspection_channels.delete": api.Done(m.inspectCancel),
		// mix.go
		"vc.confs.mixs.get":            api.Typed(m.getMix),
		"vc.confs.mixs.create":         api.Done(m.startMix),
		"vc.confs.mixs.delete":         api.Done(m.stopMix),
		"vc.confs.mixs.members.add":    api.Done(m.addMixMembers),
		"vc.confs.mixs.members.delete": api.Done(m.removeMixMembers),
		// monitor.go
		"vc.confs.monitors.list":               api.Typed(m.monitorList),
		"vc.confs.monitors.get":                api.Typed(m.monitorGet),
		"vc.confs.monitors.create":             api.Done(m.monitorStart),
		"vc.confs.monitors.delete":             api.Done(m.monitorStop),
		"vc.confs.monitors_heartbeat.send":     api.Done(m.monitorHeartbeat),
		"vc.confs.neediframe.monitors.request": api.Done(m.monitorKeyFrame),
		// mts.go
		"vc.confs.mts.list": api.Typed(m.listMts),
		"vc.confs.mts.get":  api.Typed(m.getMt),
		// quality.go
		"vc.confs.quality.get": api.Typed(m.getQuality),
		"vc.confs.mts.add":     api.Typed(m.addMts),
		"vc.confs.mts.delete":  api.Done(m.deleteMts),
		// mts_call.go
		"vc.confs.online_mts.call":   api.Done(m.callMts),
		"vc.confs.online_mts.hangup": api.Done(m.hangupMts),
		// mts_control.go
		"vc.confs.mts.silence.update":   m.mtFlag((*engine.Engine).SetSilence),
		"vc.confs.mts.mute.update":      m.mtFlag((*engine.Engine).SetMute),
		"vc.confs.mts.volume.update":    api.Done(m.setMtVolume),
		"vc.confs.mts.camera.control":   api.Done(m.controlMtCamera),
		"vc.confs.mts.call_mode.update": api.Done(m.setMtCallMode),
		"vc.confs.mts.videos.get":       api.Typed(m.getMtVideos),
		"vc.confs.mts.videos.update":    api.Done(m.setMtVideo),
		// mtvmps.go
		"vc.confs.mtvmps.create":          api.Done(m.startSelfVMP),
		"vc.confs.mtvmps.list":            selfList(m, false, mtvmpsList),
		"vc.confs.mtvmps.get":             selfGet(m, false, mtvmpsReply),
		"vc.confs.mtvmps.update":          m.modifySelfVMP(false),
		"vc.confs.mtvmps.delete":          m.stopSelfVMP(false),
		"vc.confs.mtvmps.channel.get":     selfGet(m, true, channelVMPReply),
		"vc.confs.mt_channel_vmps.create": api.Done(m.startSelfVMP),
		"vc.confs.mt_channel_vmps.list":   selfList(m, true, channelVMPList),
		"vc.confs.mt_channel_vmps.get":    selfGet(m, true, channelVMPReply),
		"vc.confs.mt_channel_vmps.update": m.modifySelfVMP(true),
		"vc.confs.mt_channel_vmps.delete": m.stopSelfVMP(true),
		// playback.go
		"vc.confs.playback.start":                   api.Typed(m.playbackStart),
		"vc.confs.playback.start_put":               api.Typed(m.playbackStart),
		"vc.confs.playback.get":                     api.Typed(m.playbackGet),
		"vc.confs.playback.state.update":            api.Done(m.playbackState),
		"vc.confs.playback.current_progress.update": api.Done(m.playbackSeek),
		// poll.go
		"vc.confs.poll.get":                   pollGet(m, conf, pollAsConf),
		"vc.confs.poll.start":                 m.pollStart(conf),
		"vc.confs.poll.state.update":          m.pollState(conf),
		"vc.confs.upload_poll.get":            pollGet(m, upload, pollAsUpload),
		"vc.confs.upload_poll.start":          m.pollStart(upload),
		"vc.confs.upload_poll.start_put":      m.pollStart(upload),
		"vc.confs.upload_poll.state.update":   m.pollState(upload),
		"vc.confs.chairman_poll.get":          pollGet(m, chair, pollAsChairman),
		"vc.confs.chairman_poll.start":        m.pollStart(chair),
		"vc.confs.chairman_poll.start_put":    m.pollStart(chair),
		"vc.confs.chairman_poll.state.update": m.pollState(chair),
		// rec.go
		"vc.confs.recorders.create":       api.Typed(m.recStart),
		"vc.confs.recorders.list":         api.Typed(m.recList),
		"vc.confs.recorders.get":          api.Typed(m.recGet),
		"vc.confs.recorders.state.update": api.Done(m.recState),
		"vc.confs.recorders.delete":       api.Done(m.recStop),
		// upload.go
		"vc.confs.upload.get":    api.Typed(m.getUpload),
		"vc.confs.upload.update": api.Done(m.setUpload),
		// vmp.go
		"vc.confs.vmps.get":        api.Typed(m.getVMP),
		"vc.confs.vmps.create":     api.Done(m.startVMP),
		"vc.confs.vmps.update":     api.Done(m.modifyVMP),
		"vc.confs.vmps.update_put": api.Done(m.modifyVMP),
		"vc.confs.vmps.delete":     api.Done(m.stopVMP),
		// vrs.go
		"vc.vrs.list": api.Typed(vrsList),
	}
}
