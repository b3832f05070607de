// The harness's side of the measuring processes (runner.ts): one per tree, started once, asked for
// one workload at a time. Both stay alive for the whole command, but only one works at a time.
import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { track } from "./proc.ts";
import type { HostileTiming } from "../hostile.ts";
import type { ClusterResult, KernelResult, NodeResult, Reply, Work } from "./runner.ts";

const RUNNER = join(import.meta.dirname, "runner.ts");

export class Runner {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private exited: string | null = null;

  private constructor(private readonly child: ChildProcess, label: string) {
    child.on("message", (reply: Reply) => {
      const p = this.pending.get(reply.id);
      if (p === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(new Error(`${label}: ${reply.error}`));
    });
    child.once("exit", (code, signal) => {
      this.exited = `${label}'s measuring process exited (${signal ?? `code ${String(code)}`})`;
      for (const p of this.pending.values()) p.reject(new Error(this.exited));
      this.pending.clear();
    });
  }

  /**
   * Starts the measuring process of the tree at treeRoot (its dist/ built). It runs this tree's
   * runner.ts through tsx, as `npm run bench` runs; only the library it loads is the tree's.
   */
  static async start(treeRoot: string, label: string): Promise<Runner> {
    const child = fork(RUNNER, [treeRoot], { cwd: join(import.meta.dirname, "..", "..", ".."), execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    track(child);
    const runner = new Runner(child, label);
    // The runner says it is ready (reply 0) once the tree's library is loaded.
    await new Promise<void>((resolve, reject) => runner.pending.set(0, { resolve: () => resolve(), reject }));
    return runner;
  }

  call(work: Extract<Work, { kind: "kernel" }>): Promise<KernelResult>;
  call(work: Extract<Work, { kind: "node" }>): Promise<NodeResult>;
  call(work: Extract<Work, { kind: "cluster" }>): Promise<ClusterResult>;
  call(work: Extract<Work, { kind: "hostile" }>): Promise<HostileTiming[]>;
  call(work: Work): Promise<unknown> {
    if (this.exited !== null) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, work });
    });
  }

  stop(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
