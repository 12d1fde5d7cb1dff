package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// Routes is the vc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	conf, upload, chair := pollKinds[0], pollKinds[1], pollKinds[2]
	lc := newListCache(listCacheMax) // the list's reshaped items and bodies, per release (confs.go, confs_cache.go)
	return api.Routes{
		// cascades.go
		"vc.confs.cascades.list":     m.listCascades,
		"vc.confs.cascades.mts.list": typed(m.listCascadeMts),
		"vc.confs.cascades.mts.add":  typed(m.addCascadeMts),
		// confs.go
		"vc.confs.list": func(ctx context.Context, r *api.Request) (wire.Object, error) {
			return m.listConfs(ctx, r, lc)
		},
		"vc.confs.get": m.getConf,
		// control_dual.go
		"vc.confs.dualstream.get":    ctlGetRole(m, dualOf, dualReply),
		"vc.confs.dualstream.update": done(m.setDualStream),
		"vc.confs.dualstream.delete": done(m.cancelDualStream),
		// control_mute.go
		"vc.confs.silence.update": done(m.setSilenceAll),
		"vc.confs.mute.update":    done(m.setMuteAll),
		// control_settings.go
		"vc.confs.delay.update":          done(m.delayConf),
		"vc.confs.safty.update":          done(m.setSafety),
		"vc.confs.name.update":           done(m.renameConf),
		"vc.confs.forcebroadcast.update": done(m.setForceBroadcast),
		"vc.confs.dualmode.update":       done(m.setDualMode),
		// control_sms.go
		"vc.confs.sms.send": done(m.sendSMS),
		// control_speaker.go
		"vc.confs.chairman.get":    ctlGetRole(m, chairmanOf, chairmanReply),
		"vc.confs.chairman.update": done(m.setChairman),
		"vc.confs.speaker.get":     ctlGetRole(m, speakerOf, speakerReply),
		"vc.confs.speaker.update":  done(m.setSpeaker),
		// control_vad.go
		"vc.confs.vad.get":        typed(m.getVAD),
		"vc.confs.vad.update":     done(m.setVAD),
		"vc.confs.viplist.get":    typed(m.getVIPs),
		"vc.confs.viplist.update": done(m.setVIPs),
		// hdu.go
		"vc.confs.hdus.list":         typed(m.listHDUs),
		"vc.confs.hdus.get":          typed(m.getHDU),
		"vc.confs.hdus.create":       done(m.startHDU),
		"vc.confs.hdus.delete":       done(m.stopHDU),
		"vc.confs.hdus.alias.update": done(m.setHDUAlias),
		// hdu_registry.go
		"vc.hdus.list": typed(m.listPlatformHDUs),
		// hdu_manage.go
		"vc.tv_walls.create": m.registerWall,
		"vc.tv_walls.delete": done(m.removeWall),
		// hdupoll.go
		"vc.confs.hdupoll.get":          typed(m.getHDUPoll),
		"vc.confs.hdupoll.start":        typed(m.startHDUPoll),
		"vc.confs.hdupoll.state.update": done(m.setHDUPollState),
		// hduvmps.go
		"vc.confs.hduvmps.create": done(m.startHDUVMP),
		"vc.confs.hduvmps.list":   typed(m.listHDUVMPs),
		"vc.confs.hduvmps.get":    typed(m.getHDUVMP),
		"vc.confs.hduvmps.update": done(m.modifyHDUVMP),
		"vc.confs.hduvmps.delete": done(m.stopHDUVMP),
		// inspect.go
		"vc.confs.inspections.list":           m.inspectList,
		"vc.confs.inspections.create":         done(m.inspectStart),
		"vc.confs.inspections.delete":         done(m.inspectCancel),
		"vc.confs.inspection_channels.list":   m.inspectList,
		"vc.confs.inspection_channels.create": done(m.inspectStart),
		"vc.confs.inspection_channels.delete": done(m.inspectCancel),
		// mix.go
		"vc.confs.mixs.get":            typed(m.getMix),
		"vc.confs.mixs.create":         done(m.startMix),
		"vc.confs.mixs.delete":         done(m.stopMix),
		"vc.confs.mixs.members.add":    done(m.addMixMembers),
		"vc.confs.mixs.members.delete": done(m.removeMixMembers),
		// monitor.go
		"vc.confs.monitors.list":               typed(m.monitorList),
		"vc.confs.monitors.get":                typed(m.monitorGet),
		"vc.confs.monitors.create":             done(m.monitorStart),
		"vc.confs.monitors.delete":             done(m.monitorStop),
		"vc.confs.monitors_heartbeat.send":     done(m.monitorHeartbeat),
		"vc.confs.neediframe.monitors.request": done(m.monitorKeyFrame),
		// mts.go
		"vc.confs.mts.list": typed(m.listMts),
		"vc.confs.mts.get":  typed(m.getMt),
		// quality.go
		"vc.confs.quality.get": typed(m.getQuality),
		"vc.confs.mts.add":     typed(m.addMts),
		"vc.confs.mts.delete":  done(m.deleteMts),
		// mts_call.go
		"vc.confs.online_mts.call":   done(m.callMts),
		"vc.confs.online_mts.hangup": done(m.hangupMts),
		// mts_control.go
		"vc.confs.mts.silence.update":   m.mtFlag((*engine.Engine).SetSilence),
		"vc.confs.mts.mute.update":      m.mtFlag((*engine.Engine).SetMute),
		"vc.confs.mts.volume.update":    done(m.setMtVolume),
		"vc.confs.mts.camera.control":   done(m.controlMtCamera),
		"vc.confs.mts.call_mode.update": done(m.setMtCallMode),
		"vc.confs.mts.videos.get":       typed(m.getMtVideos),
		"vc.confs.mts.videos.update":    done(m.setMtVideo),
		// mtvmps.go
		"vc.confs.mtvmps.create":          done(m.startSelfVMP),
		"vc.confs.mtvmps.list":            selfList(m, false, mtvmpsList),
		"vc.confs.mtvmps.get":             selfGet(m, false, mtvmpsReply),
		"vc.confs.mtvmps.update":          m.modifySelfVMP(false),
		"vc.confs.mtvmps.delete":          m.stopSelfVMP(false),
		"vc.confs.mtvmps.channel.get":     selfGet(m, true, channelVMPReply),
		"vc.confs.mt_channel_vmps.create": done(m.startSelfVMP),
		"vc.confs.mt_channel_vmps.list":   selfList(m, true, channelVMPList),
		"vc.confs.mt_channel_vmps.get":    selfGet(m, true, channelVMPReply),
		"vc.confs.mt_channel_vmps.update": m.modifySelfVMP(true),
		"vc.confs.mt_channel_vmps.delete": m.stopSelfVMP(true),
		// playback.go
		"vc.confs.playback.start":                   typed(m.playbackStart),
		"vc.confs.playback.start_put":               typed(m.playbackStart),
		"vc.confs.playback.get":                     typed(m.playbackGet),
		"vc.confs.playback.state.update":            done(m.playbackState),
		"vc.confs.playback.current_progress.update": done(m.playbackSeek),
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
		"vc.confs.recorders.create":       typed(m.recStart),
		"vc.confs.recorders.list":         typed(m.recList),
		"vc.confs.recorders.get":          typed(m.recGet),
		"vc.confs.recorders.state.update": done(m.recState),
		"vc.confs.recorders.delete":       done(m.recStop),
		// upload.go
		"vc.confs.upload.get":    typed(m.getUpload),
		"vc.confs.upload.update": done(m.setUpload),
		// vmp.go
		"vc.confs.vmps.get":        typed(m.getVMP),
		"vc.confs.vmps.create":     done(m.startVMP),
		"vc.confs.vmps.update":     done(m.modifyVMP),
		"vc.confs.vmps.update_put": done(m.modifyVMP),
		"vc.confs.vmps.delete":     done(m.stopVMP),
		// vrs.go
		"vc.vrs.list": typed(vrsList),
	}
}
