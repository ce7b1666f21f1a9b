// The D1 binding with every statement passed through unchanged, recording the SQL text of each
// one prepared on it or on one of its sessions (each is run: nothing here prepares a statement it
// does not send), and where each session started (readSessions.ts).
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { sendTo } from "./harness";

export function recordingD1(d1: D1Database) {
  const statements: string[] = [];
  const sessionStarts: string[] = [];
  const recordingPrepare = (target: { prepare(query: string): D1PreparedStatement }) => (query: string) => {
    statements.push(query);
    return target.prepare(query);
  };
  const passThrough = <T extends object>(target: T, property: string | symbol) => {
    const value = Reflect.get(target, property, target);
    return typeof value === "function" ? value.bind(target) : value;
  };
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return recordingPrepare(target);
      if (property === "withSession") {
        return (start?: string) => {
          sessionStarts.push(start ?? "first-unconstrained");
          const session = target.withSession(start);
          return new Proxy(session, {
            get: (inner, name) => (name === "prepare" ? recordingPrepare(inner) : passThrough(inner, name)),
          });
        };
      }
      return passThrough(target, property);
    },
  });
  return { binding, statements, sessionStarts };
}

/** The statements (and session starts) one request sends to D1, through an app built on the recording binding. */
export async function statementsOf(path: string, init: RequestInit) {
  const recording = recordingD1(env.DB);
  const reply = await sendTo(createApp(), path, init, { DB: recording.binding });
  return { reply, statements: recording.statements, sessionStarts: recording.sessionStarts };
}
