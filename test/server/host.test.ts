// Which Host a request may name: the loopback names, with or without a port, and what the user allowed.
import { describe, expect, it } from "vitest";
import { hostAllowed, hostName } from "../../src/server/host.ts";

describe("hostName", () => {
  it.each([
    ["localhost:10255", "localhost"],
    ["LocalHost", "localhost"],
    ["localhost.", "localhost"],
    ["127.0.0.1:80", "127.0.0.1"],
    ["[::1]:10255", "[::1]"],
    ["[::1]", "[::1]"],
    [" example.com:8080 ", "example.com"],
  ])("%s is %s", (header, name) => expect(hostName(header)).toBe(name));
});

describe("hostAllowed", () => {
  it.each([
    [undefined, [], true],
    ["", [], true],
    ["localhost:1", [], true],
    ["127.0.0.1", [], true],
    ["[::1]:2", [], true],
    ["127.0.0.2", [], false],
    ["localhost.attacker.example", [], false],
    ["attacker.example", [], false],
    ["[::2]", [], false],
    ["kube.test:10255", ["kube.test"], true],
    ["KUBE.TEST", ["kube.test:99"], true],
    ["other.test", ["kube.test"], false],
    ["anything.example", ["*"], true],
  ] as const)("Host %s with --allow-host %j: %s", (header, allowed, ok) => expect(hostAllowed(header, allowed)).toBe(ok));
});
