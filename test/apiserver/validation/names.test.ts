// The name and number checks of apimachinery's pkg/util/validation, with the good and bad values
// of its validation_test.go (TestIsDNS1123Label, TestIsDNS1123Subdomain, TestIsValidPortNum,
// TestIsValidPortName, TestIsQualifiedName, TestIsValidLabelValue, TestIsEnvVarName), and the
// exact texts of the messages.
import { describe, expect, it } from "vitest";
import {
  byteLength, isDNS1123Label, isDNS1123Subdomain, isEnvVarName, isQualifiedName, isValidLabelValue, isValidPortName, isValidPortNum,
} from "../../../src/apiserver/validation/names.ts";

const good = (fn: (v: string) => string[], values: string[]) => values.forEach((v) => expect(fn(v), JSON.stringify(v)).toEqual([]));
const bad = (fn: (v: string) => string[], values: string[]) => values.forEach((v) => expect(fn(v).length, JSON.stringify(v)).toBeGreaterThan(0));

describe("apimachinery name checks", () => {
  it("TestIsDNS1123Label", () => {
    good(isDNS1123Label, ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a".repeat(63)]);
    bad(isDNS1123Label, ["", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
      ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "a".repeat(64)]);
  });

  it("TestIsDNS1123Subdomain", () => {
    good(isDNS1123Subdomain, ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a.a", "ab.a",
      "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1", "0.a", "01.a", "012.a",
      "1a.a", "1-a.a", "1--a--b--2", "0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee",
      "1.2.3.4.5", "11.22.33.44.55", "a".repeat(253)]);
    bad(isDNS1123Subdomain, ["", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1",
      "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a",
      "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A", "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e",
      "aa.bB.cc.dd.ee", "a@b", "a,b", "a_b", "a;b", "a:b", "a%b", "a?b", "a$b", "a".repeat(254)]);
  });

  it("TestIsValidPortNum", () => {
    for (const p of [1, 2, 1000, 16384, 32768, 65535]) expect(isValidPortNum(p)).toEqual([]);
    for (const p of [0, -1, 65536, 100000]) expect(isValidPortNum(p)).toEqual(["must be between 1 and 65535, inclusive"]);
  });

  it("TestIsValidPortName", () => {
    good(isValidPortName, ["telnet", "re-mail-ck", "pop3", "a", "a-1", "1-a", "a-1-b-2-c", "1-a-2-b-3"]);
    bad(isValidPortName, ["longerthan15characters", "", "a".repeat(16), "12345", "1-2-3-4", "-begin", "end-", "two--hyphens", "whois++"]);
  });

  it("TestIsQualifiedName", () => {
    good(isQualifiedName, ["simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
      "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num",
      "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
      "a".repeat(63), `${"a".repeat(253)}/${"b".repeat(63)}`]);
    bad(isQualifiedName, ["nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
      "example_com/abc", "example.com/", "/simple", "a".repeat(64), `${"a".repeat(254)}/abc`]);
  });

  it("TestIsValidLabelValue", () => {
    good(isValidLabelValue, ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a".repeat(63), ""]);
    bad(isValidLabelValue, ["nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash",
      "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a".repeat(64)]);
  });

  it("TestIsEnvVarName", () => {
    good(isEnvVarName, ["A", "ABC", "AbC_123", "_123", "abc_123", "a-b", "a.b", "a..b", "-abc", ".abc"]);
    bad(isEnvVarName, ["1abc", "ev!1", ".", "..", "..abc", "a b", "a=b"]);
  });

  it("words the failures as upstream does, lengths in bytes", () => {
    expect(isDNS1123Label("a.b")).toEqual(["must not contain dots"]);
    expect(isDNS1123Label("App")).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label("a".repeat(64))).toEqual(["must be no more than 63 characters"]);
    expect(isQualifiedName("/x")).toEqual(["prefix part must be non-empty"]);
    expect(isValidPortName("12345")).toEqual(["must contain at least one letter (a-z)"]);
    expect(byteLength("rā")).toBe(3);
    expect(isValidLabelValue("ā".repeat(32))).toContain("must be no more than 63 characters");
  });
});
