// Models staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go, api/validate/content
// (label keys and values) and api/validation/generic.go (NameIsDNSSubdomain, NameIsDNSLabel).
//
// Each check returns upstream's messages, or none. Lengths count UTF-8 bytes, as Go's len does.

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123_LABEL_MAX_LENGTH = 63;
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX_LENGTH = 63;
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LABEL_VALUE_MAX_LENGTH = 63;
const ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const ENV_VAR_NAME_ERR = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const RELAXED_ENV_VAR_NAME_ERR = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const HTTP_HEADER_NAME_FMT = "[-A-Za-z0-9]+";
const HTTP_HEADER_NAME_ERR = "a valid HTTP header must consist of alphanumeric characters or '-'";
const CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
const CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

const whole = (fmt: string) => new RegExp(`^(?:${fmt})$`);
const dns1123LabelRegexp = whole(DNS1123_LABEL_FMT);
const dns1123SubdomainRegexp = whole(DNS1123_SUBDOMAIN_FMT);
const labelKeyRegexp = whole(LABEL_KEY_FMT);
const labelValueRegexp = whole(LABEL_VALUE_FMT);
const envVarNameRegexp = whole(ENV_VAR_NAME_FMT);
const httpHeaderNameRegexp = whole(HTTP_HEADER_NAME_FMT);
const configMapKeyRegexp = whole(CONFIG_MAP_KEY_FMT);

/** len(s) in Go: the number of UTF-8 bytes. */
export function byteLength(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

export const maxLenError = (length: number) => `must be no more than ${length} characters`;
export const emptyError = () => "must be non-empty";
export const inclusiveRangeError = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

/** RegexError: the message, the examples (each followed by ", ", as upstream writes them) and the regex. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += " or ";
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain that is not a valid label: the length was checked, so it must be dots.
    if (dns1123SubdomainRegexp.test(value)) errs.push("must not contain dots");
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRegexp.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
  return errs;
}

/** NameIsDNSSubdomain (prefix false): pod, node, service account and priority class names. */
export const nameIsDNSSubdomain = isDNS1123Subdomain;
/** NameIsDNSLabel (prefix false): namespace names. */
export const nameIsDNSLabel = isDNS1123Label;

/**
 * IsQualifiedName (content.IsLabelKey): an optional DNS subdomain prefix and "/", then a name.
 * Simplification: the message for more than one "/" is the one releases up to 1.33 print
 * ("a qualified name ..."); later releases say "a valid label key ...".
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > LABEL_KEY_MAX_LENGTH) errs.push(`name part ${maxLenError(LABEL_KEY_MAX_LENGTH)}`);
  if (!labelKeyRegexp.test(name)) errs.push(`name part ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRegexp.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  return errs;
}

/** IsValidPortNum: 1 to 65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: at most 15 of [-a-z0-9], at least one letter, no "--", no dash at either end. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs;
}

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRegexp.test(value)) errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"));
  return [...errs, ...hasChDirPrefix(value)];
}

/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation): printable ASCII other than "=". */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  if (/[^\x20-\x3c\x3e-\x7e]/.test(value)) errs.push(RELAXED_ENV_VAR_NAME_ERR);
  return errs;
}

export function isHTTPHeaderName(value: string): string[] {
  return httpHeaderNameRegexp.test(value) ? [] : [regexError(HTTP_HEADER_NAME_ERR, HTTP_HEADER_NAME_FMT, "X-Header-Name")];
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configMapKeyRegexp.test(value)) errs.push(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
  return [...errs, ...hasChDirPrefix(value)];
}

function hasChDirPrefix(value: string): string[] {
  if (value === ".") return ["must not be '.'"];
  if (value === "..") return ["must not be '..'"];
  if (value.startsWith("..")) return ["must not start with '..'"];
  return [];
}
