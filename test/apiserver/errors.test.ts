import { describe, expect, it } from "vitest";
import { isNotFound, newConnectionRefused, newNotFound, StatusError } from "../../src/apiserver/errors.ts";

describe("StatusError", () => {
  it("is an Error with upstream's code, reason and message", () => {
    const e = newNotFound("web");
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(StatusError);
    expect([e.code, e.reason, e.message, e.name]).toEqual([404, "NotFound", 'pods "web" not found', "StatusError"]);
    expect(isNotFound(e)).toBe(true);
    expect(newConnectionRefused("GET", "/api/v1/pods").code).toBe(0);
  });

  it("carries no JavaScript stack (a Go error is a value) and leaves other errors' stacks as they were", () => {
    const limit = Error.stackTraceLimit;
    const e = newNotFound("web");
    expect(e.stack).toBe('StatusError: pods "web" not found');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("other").stack!.split("\n").length).toBeGreaterThan(1);
  });
});
