// The old tree of `--against REV`: REV checked out as a temporary git worktree in os.tmpdir(), its
// dependencies installed (this tree's node_modules by symlink when REV's package-lock.json is the
// same file, else `npm ci`), and built as `npm run build` builds. Removed afterwards, also when
// the command is interrupted: remove() is synchronous so a signal handler can call it.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchArgError } from "../args.ts";
import { mustRun, run } from "./proc.ts";
import type { CommitInfo } from "./format.ts";

/** The full hash of REV, or an error that says REV is not a commit here. */
export async function resolveCommit(root: string, rev: string): Promise<string> {
  const r = await run("git", ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], { cwd: root });
  if (r.code !== 0) throw new BenchArgError(`--against ${rev}: not a commit of the repository at ${root}`);
  return r.stdout.trim();
}

/** A commit's hash and subject; for the new tree, whether it has changes not committed. */
export async function commitInfo(root: string, rev: string, checkDirty: boolean): Promise<CommitInfo> {
  const commit = await resolveCommit(root, rev);
  const subject = (await mustRun("git log", "git", ["log", "-1", "--format=%s", commit], { cwd: root })).stdout.trim();
  const dirty = checkDirty && (await mustRun("git status", "git", ["status", "--porcelain"], { cwd: root })).stdout.trim() !== "";
  return { rev, commit, subject, dirty };
}

/** `npm ARGS` through the npm that runs this command when there is one (as scripts/prepare.mjs does). */
export function npm(args: readonly string[], cwd: string) {
  const execpath = process.env["npm_execpath"];
  return execpath === undefined ? mustRun(`npm ${args.join(" ")} in ${cwd}`, "npm", args, { cwd }) : mustRun(`npm ${args.join(" ")} in ${cwd}`, process.execPath, [execpath, ...args], { cwd });
}

export class TempTree {
  private removed = false;

  private constructor(
    /** The repository the worktree was added to (this tree). */
    private readonly repoRoot: string,
    /** The temporary directory holding the worktree. */
    private readonly base: string,
    readonly root: string,
  ) {}

  /** Checks out `commit` in a new temporary worktree of the repository at repoRoot. */
  static async add(repoRoot: string, commit: string): Promise<TempTree> {
    const base = mkdtempSync(join(tmpdir(), "kubelet-sim-against-"));
    const tree = new TempTree(repoRoot, base, join(base, "tree"));
    try {
      await mustRun("git worktree add", "git", ["worktree", "add", "--detach", tree.root, commit], { cwd: repoRoot });
    } catch (err) {
      tree.remove();
      throw err;
    }
    return tree;
  }

  /**
   * Installs the dependencies: a symlink to this tree's node_modules when both lock files are the
   * same bytes (the same packages; a symlinked install is never written to by a build), else a
   * clean `npm ci`. Returns which, for the log.
   */
  async install(): Promise<"symlink" | "npm ci"> {
    const lock = (root: string) => join(root, "package-lock.json");
    const ours = join(this.repoRoot, "node_modules");
    if (existsSync(lock(this.root)) && existsSync(ours) && readFileSync(lock(this.root)).equals(readFileSync(lock(this.repoRoot)))) {
      symlinkSync(ours, join(this.root, "node_modules"), "dir");
      return "symlink";
    }
    await npm(["ci"], this.root);
    return "npm ci";
  }

  /** Removes the worktree (the symlink first, so nothing behind it is touched) and its directory. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    const modules = join(this.root, "node_modules");
    try {
      if (lstatSync(modules).isSymbolicLink()) unlinkSync(modules);
    } catch {
      // no node_modules yet
    }
    const r = spawnSync("git", ["worktree", "remove", "--force", this.root], { cwd: this.repoRoot, encoding: "utf8" });
    rmSync(this.base, { recursive: true, force: true });
    if (r.status !== 0) {
      process.stderr.write(`bench: git worktree remove ${this.root} failed (${r.stderr.trim()}); its directory is removed, and \`git worktree prune\` forgets it\n`);
    }
  }
}
