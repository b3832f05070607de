// Models pkg/util/parsers/parsers.go (ParseImageName), on top of docker reference parsing.
//
// Simplified: the docker/distribution grammar is reduced to what decides the tag and digest
// (the part after the last "/" holds the tag; "@" starts a digest). Registry host normalisation
// ("docker.io/library/") is not applied to the repository name, since nothing downstream needs it.

export interface ImageName {
  repository: string;
  /** "" when the name carries only a digest, "latest" when it carries neither. */
  tag: string;
  digest: string;
  /** false when the name is not a valid reference (ParseImageName returned an error). */
  valid: boolean;
}

const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?::[0-9]+)?(?:\/[a-zA-Z0-9._-]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;

export function parseImageName(image: string): ImageName {
  const invalid: ImageName = { repository: "", tag: "", digest: "", valid: false };
  let rest = image;
  let digest = "";
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return invalid;
  }
  let tag = "";
  const lastSlash = rest.lastIndexOf("/");
  const colon = rest.indexOf(":", lastSlash + 1);
  if (colon >= 0) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return invalid;
  }
  if (rest === "" || !NAME.test(rest.toLowerCase()) || rest !== rest.toLowerCase()) return invalid;
  // "If no tag was specified, use the default "latest"."
  if (tag === "" && digest === "") tag = "latest";
  return { repository: rest, tag, digest, valid: true };
}
