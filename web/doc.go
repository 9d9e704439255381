// Package web is the live view and take-over UI: a page listing a principal's
// sessions and a page per session that draws its screen from package screen's cells
// (colours, cursor, scrollback), updated over server-sent events as output arrives.
// A person signed in may take the keyboard from the agent, type (keys named as
// send_control names them, judged by the same danger rules through Config.Gate) and
// give it back.
//
// Two credentials: a view token per session (in watch URLs, which the agent is given)
// allows watching only; control needs the sign-in cookie, which a person gets by
// giving the login form a token the agent never sees.
//
// It may import session and screen; what it needs of the tools (the gate, the audit
// log) and of the transport (checking a sign-in token) is handed to it in Config.
package web
