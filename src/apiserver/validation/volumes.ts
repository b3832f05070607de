// Models ValidateVolumes, validateVolumeSource and ValidateVolumeMounts of
// pkg/apis/core/validation/validation.go: volume names, one source type per volume, and mounts that
// name a declared volume at a unique path.
//
// Simplification: the simulator has no volume plugins, so of the source types only the fields
// every pod author meets are checked (emptyDir, hostPath, secret, configMap, persistentVolumeClaim);
// the others count as a type without their own checks. volumeDevices, subPathExpr expansion,
// mountPropagation and recursiveReadOnly are not modelled.
import { FieldPath, duplicate, forbidden, invalid, notFound, notSupported, required, type FieldError } from "./field.ts";
import { isDNS1123Label } from "./names.ts";
import { parseQuantity, sign } from "./quantity.ts";
import { get, list, str } from "./raw.ts";

/** The VolumeSource fields in the order validateVolumeSource visits them, with the child names its errors use. */
const SOURCE_TYPES: ReadonlyArray<[json: string, forbiddenChild: string]> = [
  ["emptyDir", "emptyDir"], ["hostPath", "hostPath"], ["gitRepo", "gitRepo"], ["gcePersistentDisk", "gcePersistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore"], ["secret", "secret"], ["nfs", "nfs"], ["iscsi", "iscsi"],
  ["glusterfs", "glusterfs"], ["flocker", "flocker"], ["persistentVolumeClaim", "persistentVolumeClaim"], ["rbd", "rbd"],
  ["cinder", "cinder"], ["cephfs", "cephFS"], ["quobyte", "quobyte"], ["downwardAPI", "downwarAPI"], ["fc", "fc"],
  ["flexVolume", "flexVolume"], ["configMap", "configMap"], ["azureFile", "azureFile"], ["vsphereVolume", "vsphereVolume"],
  ["photonPersistentDisk", "photonPersistentDisk"], ["portworxVolume", "portworxVolume"], ["azureDisk", "azureDisk"],
  ["storageos", "storageos"], ["projected", "projected"], ["scaleIO", "scaleIO"], ["csi", "csi"], ["ephemeral", "ephemeral"],
  ["image", "image"],
];
const HOST_PATH_TYPES = ["", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"];

function validateSource(json: string, src: unknown, p: FieldPath): FieldError[] {
  switch (json) {
    case "emptyDir": {
      const limit = get(src, "sizeLimit");
      const q = limit === undefined || limit === null ? null : parseQuantity(String(limit));
      return q !== null && q.ok && sign(q.q) < 0 ? [forbidden(p.child("sizeLimit"), "SizeLimit field must be a valid resource quantity")] : [];
    }
    case "hostPath": {
      const path = str(get(src, "path"));
      if (path.length === 0) return [required(p.child("path"), "")];
      const errs = validatePathNoBacksteps(path, p.child("path"));
      const type = get(src, "type");
      if (typeof type === "string" && !HOST_PATH_TYPES.includes(type)) errs.push(notSupported(p.child("type"), type, HOST_PATH_TYPES));
      return errs;
    }
    case "secret":
      return str(get(src, "secretName")).length === 0 ? [required(p.child("secretName"), "")] : [];
    case "configMap":
      return str(get(src, "name")).length === 0 ? [required(p.child("name"), "")] : [];
    case "persistentVolumeClaim":
      return str(get(src, "claimName")).length === 0 ? [required(p.child("claimName"), "")] : [];
    default:
      return [];
  }
}

/** validatePathNoBacksteps */
function validatePathNoBacksteps(target: string, p: FieldPath): FieldError[] {
  return target.split("/").includes("..") ? [invalid(p, target, "must not contain '..'")] : [];
}

/** validateVolumeSource: exactly one source type. */
function validateVolumeSource(vol: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let numVolumes = 0;
  for (const [json, child] of SOURCE_TYPES) {
    const src = get(vol, json);
    if (src === undefined || src === null) continue;
    if (numVolumes > 0) {
      errs.push(forbidden(p.child(child), "may not specify more than 1 volume type"));
      continue;
    }
    numVolumes++;
    errs.push(...validateSource(json, src, p.child(json)));
  }
  if (numVolumes === 0) errs.push(required(p, "must specify a volume type"));
  return errs;
}

/** ValidateVolumes: the names of the volumes that validated, for the mounts to refer to. */
export function validateVolumes(volumes: unknown, p: FieldPath): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  list(volumes).forEach((vol, i) => {
    const at = p.index(i);
    const name = str(get(vol, "name"));
    const el = validateVolumeSource(vol, at);
    if (name.length === 0) el.push(required(at.child("name"), ""));
    else el.push(...isDNS1123Label(name).map((msg) => invalid(at.child("name"), name, msg)));
    if (names.has(name)) el.push(duplicate(at.child("name"), name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}

/** ValidateVolumeMounts: each mount names a declared volume, at a unique path. */
export function validateVolumeMounts(mounts: unknown, volumes: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  list(mounts).forEach((mnt, i) => {
    const at = p.index(i);
    const name = str(get(mnt, "name"));
    const mountPath = str(get(mnt, "mountPath"));
    if (name.length === 0) errs.push(required(at.child("name"), ""));
    if (!volumes.has(name)) errs.push(notFound(at.child("name"), name));
    if (mountPath.length === 0) errs.push(required(at.child("mountPath"), ""));
    if (mountPoints.has(mountPath)) errs.push(invalid(at.child("mountPath"), mountPath, "must be unique"));
    mountPoints.add(mountPath);
    const subPath = str(get(mnt, "subPath"));
    // validateLocalDescendingPath, as upstream calls it, with the list's path rather than the item's.
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, p.child("subPath")));
  });
  return errs;
}

/** validateLocalDescendingPath: relative, without "..". */
function validateLocalDescendingPath(target: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith("/")) errs.push(invalid(p, target, "must be a relative path"));
  errs.push(...validatePathNoBacksteps(target, p));
  return errs;
}
