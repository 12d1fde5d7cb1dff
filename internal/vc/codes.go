package vc

// Error codes of reference A3 that conference control answers, all in one
// place; a handler names the constant, never the number. The codes shared
// by every module (12103 unknown conference, 12104 unknown terminal, 20005,
// 90400, ...) are internal/wire's.
const (
	// Terminals and roles.
	CodeMtUnsupported          = 20444 // 终端的媒体能力不支持指定操作: camera control of a SIP terminal (docs/sip.md)
	CodeMtUnreachable          = 20401 // 指定终端不可及, 可能不在线: a member that must be online (speaker, chairman, dual stream, VIP, SMS, a feature's terminal) is not
	CodeNotChairman            = 20404 // 非主席终端不能执行此项操作
	CodeVADCannotCancelSpeaker = 20344 // 会议处于语音激励方式, 不能取消发言人
	CodeVADCannotSetSpeaker    = 20346 // 会议处于语音激励方式, 不能指定发言人
	CodeMtsOverConf            = 20566 // 呼叫终端数超过会议终端数: more terminals than the conference's max_join_mt
	CodeMtsOverMCU             = 20301 // 超过MCU最大接入终端能力: more terminals than the platform's ports (engine.Config.MaxPorts)
	CodeNoVideoSource          = 20513 // 终端没有视频源: no video source of the video_idx asked for
	CodeMtChannel              = 20054 // 得到的终端逻辑通道失败: mt_chn_idx names a video channel the terminal lacks

	// Cascades.
	CodeNoCascade       = 20436 // 指定MCU未与会: no cascade of that id
	CodeCascadeSuperior = 20109 // 指定终端是您的上级MCU, 呼叫暂时被拒绝: the conference called is the caller or above it (a loop)
	CodeCascadeTaken    = 20166 // 呼叫下级MCU失败, 该MCU已经被其它高级别MCU呼叫: the conference called already has a superior

	// TV walls.
	CodeHDUNotFound = 12105 // 外设不存在: a TV wall the domain lacks, or one the conference does not run
	CodeHDUOffline  = 20051 // 制定外设不在线
	CodeHDUPolling  = 20056 // 电视墙轮询中不能选看VMP或终端: the wall is in the TV-wall batch poll
	CodeHDUOccupied = 20058 // 有通道被占用, 请释放: the wall is used by another conference, or otherwise in this one

	// Mixing.
	CodeMixRunning    = 20811 // 当前正在进行会议混音: starting a second mix
	CodeMixNotRunning = 20812 // 当前不在进行会议混音: no mix runs, or a mixer other than mix_id 1
	CodeMixNotMember  = 20814 // 指定终端不是混音组成员

	// Picture composition (conference, terminal and TV-wall self compositions).
	CodeVMPStarted        = 20822 // 画面合成已开始
	CodeVMPNotStarted     = 20823 // 画面合成尚未开始, 不能进行此项操作: none runs, or a vmp_id other than 1
	CodeVMPMembersRefused = 20546 // 部分终端不能加入当前画面合成: more members than panes, or a channel outside the layout
	CodeVMPSameMt         = 20826 // 会议不允许同一个终端占多个合成成员通道
	CodeVMPTwoSpeaker     = 20827 // 会议不允许多通道设置成为发言人跟随模式
	CodeVMPTwoPoll        = 20828 // 会议不允许多通道设置成为轮询跟随模式
	CodeVMPTwoDual        = 20837 // 会议不允许多通道设置成为双流跟随模式

	// Polls (conference, upload, chairman and TV-wall batch polls).
	CodePollStopped    = 20524 // 轮询停止, 可能是因为所有待轮询的终端不在线或没有视频源或次数已完成
	CodeNotPolling     = 20527 // 会议不在轮询
	CodePollNoChairman = 20563 // 会议中主席不在线或者没有主席, 不允许开启主席轮训
	CodePollInPlayback = 20804 // 当前正在进行会议放像, 不能开启会议轮训

	// Recording and playback.
	CodeRecConfRecording   = 20801 // 当前正在进行会议录像
	CodeRecNotRecording    = 20802 // 当前不在进行会议录像: unknown or stopped rec_id
	CodeRecNotPaused       = 20803 // 当前未被暂停会议录像
	CodeRecMtRecording     = 20807 // 指定的终端处于录像状态
	CodeRecNameTooLong     = 24026 // 文件名长度太长
	CodeRecBadName         = 24103 // 录像文件名中存在非法字符
	CodeRecVRSFault        = 24104 // 录播服务器发生故障, 无法录放像: an unknown vrs_id
	CodeRecNameExists      = 24105 // 文件名已经存在, 请重新输入
	CodeRecDiskFull        = 24014 // 磁盘满: a recording stopped by a full disk or its quota (rec_media.go)
	CodeRecWriteError      = 24028 // 录像机录像时写文件出错
	CodeRecNoResource      = 24102 // 录像资源不足，录像开启失败: the node's recordings at once (rec_media.go)
	CodePlaybackNotPlaying = 20805 // 当前不在进行会议放像
	CodePlaybackNotPaused  = 20806 // 当前未被暂停会议放像
	CodePlaybackNoFile     = 24106 // 您点播的文件不存在, 请重新选择

	// Monitors.
	CodeMonitorUnknown = 22008 // 设备不存在, 无法进行此项操作: no live monitor at the destination
	CodeKeyFrame       = 28513 // 请求关键帧错误: a key frame for a destination without a live monitor
	CodeMonitorMedia   = 20511 // 由于系统资源有限, 您不能进行选看操作: the node cannot send the monitor's media
)
