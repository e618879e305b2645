// infra/k8s: the kustomization built here (its resources, namespace, labels and images, composed as
// `kustomize build` does for these fields) and every object validated against the Kubernetes API's
// JSON schemas from the kubernetes-models packages (KEDA's from @kubernetes-models/keda), offline.
import { readdirSync } from 'node:fs';
import * as kedaV1alpha1 from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { readRepoFile } from './repo.ts';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are free-form until validated
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};

interface Kustomization {
  apiVersion: string;
  kind: string;
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  resources: string[];
}

const DIR = 'infra/k8s';
const readDocs = (file: string): Obj[] =>
  parseAllDocuments(readRepoFile(DIR, file)).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0]?.message}`);
    return d.toJS() as Obj;
  });

/** `kustomize build infra/k8s` for the fields this kustomization uses. */
function build(): Obj[] {
  const k = parse(readRepoFile(DIR, 'kustomization.yaml')) as Kustomization;
  expect(k.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
  expect(k.kind).toBe('Kustomization');
  const known = new Set(['apiVersion', 'kind', 'namespace', 'labels', 'images', 'resources']);
  expect(Object.keys(k).filter((key) => !known.has(key))).toEqual([]);
  const out: Obj[] = [];
  for (const file of k.resources) {
    for (const obj of readDocs(file)) {
      if (k.namespace && obj.kind !== 'Namespace') obj.metadata.namespace = k.namespace;
      for (const l of k.labels ?? []) {
        obj.metadata.labels = { ...obj.metadata.labels, ...l.pairs };
        if (obj.spec?.template?.metadata) {
          obj.spec.template.metadata.labels = { ...obj.spec.template.metadata.labels, ...l.pairs };
        }
      }
      for (const c of containersOf(obj)) {
        const image = k.images?.find((i) => i.name === c.image.split(':')[0]);
        if (image) c.image = `${image.newName ?? image.name}:${image.newTag ?? 'latest'}`;
      }
      out.push(obj);
    }
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: a pod template's containers
function containersOf(obj: Obj): any[] {
  return obj.spec?.template?.spec?.containers ?? [];
}

/** The schema packages' models, by apiVersion: every apiVersion the manifests may use. */
const MODELS: Record<string, Record<string, unknown>> = {
  v1: coreV1,
  'apps/v1': appsV1,
  'batch/v1': batchV1,
  'autoscaling/v2': autoscalingV2,
  'policy/v1': policyV1,
  'keda.sh/v1alpha1': kedaV1alpha1,
};

/** The model class for an object's apiVersion and kind, from the maintained schema packages. */
function modelFor(obj: Obj) {
  const Model = MODELS[obj.apiVersion]?.[obj.kind];
  if (typeof Model !== 'function') throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
  return Model as new (
    o: Obj,
  ) => { validate(): void };
}

const validate = async (obj: Obj) => new (modelFor(obj))(obj).validate();

/** A resource quantity in base units (cores, bytes). */
function quantity(q: string | number): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(String(q));
  if (!m) throw new Error(`not a quantity: ${q}`);
  const unit = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

const objects = build();
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`infra/k8s has no ${kind} ${name}`);
  return o;
};

describe('Kubernetes manifests (infra/k8s)', () => {
  it('lists every manifest in the directory (but the Secret template) in the kustomization', () => {
    const files = readdirSync(new URL('../../../infra/k8s/', import.meta.url)).filter((f) =>
      f.endsWith('.yaml'),
    );
    const listed = (parse(readRepoFile(DIR, 'kustomization.yaml')) as Kustomization).resources;
    expect(files.filter((f) => f !== 'kustomization.yaml' && !listed.includes(f)).sort()).toEqual([
      'secret.example.yaml',
    ]);
  });

  it('validates every object against the Kubernetes schemas', async () => {
    for (const obj of [...objects, ...readDocs('secret.example.yaml')]) {
      await expect(validate(obj), `${obj.kind} ${obj.metadata.name}`).resolves.toBeUndefined();
    }
    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set([
        'Namespace',
        'ConfigMap',
        'Job',
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'ScaledObject',
        'PodDisruptionBudget',
      ]),
    );
  });

  it('the validator refuses a broken object (a bad quantity, a missing field, a wrong type)', async () => {
    const api = structuredClone(find('Deployment', 'fanpilot-api'));
    containersOf(api)[0].resources.limits.cpu = 'one core';
    await expect(validate(api)).rejects.toThrow(/quantity/);
    const noSelector = structuredClone(find('Deployment', 'fanpilot-worker'));
    delete noSelector.spec.selector;
    await expect(validate(noSelector)).rejects.toThrow(/selector/);
    const scaled = structuredClone(find('ScaledObject', 'fanpilot-worker'));
    scaled.spec.minReplicaCount = 'one';
    await expect(validate(scaled)).rejects.toThrow(/minReplicaCount/);
  });

  it('runs the api, the worker and the migration job from the two images, retagged, in one namespace', () => {
    for (const o of objects) expect(o.metadata.namespace ?? 'fanpilot').toBe('fanpilot');
    expect(containersOf(find('Deployment', 'fanpilot-api'))[0].image).toBe('fanpilot/api:local');
    expect(containersOf(find('Deployment', 'fanpilot-worker'))[0].image).toBe('fanpilot/worker:local');
    const job = find('Job', 'fanpilot-migrate');
    expect(containersOf(job)[0].image).toBe('fanpilot/api:local');
    expect(containersOf(job)[0].command).toContain('dist/migrate-cli.js');
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
  });

  it('gives every container probes on its own ports, requests within limits, and no root', () => {
    for (const name of ['fanpilot-api', 'fanpilot-worker']) {
      const d = find('Deployment', name);
      const pod = d.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      // The selector picks the pod template.
      for (const [k, v] of Object.entries(d.spec.selector.matchLabels)) {
        expect(d.spec.template.metadata.labels[k]).toBe(v);
      }
      for (const c of pod.containers) {
        const ports = new Set(c.ports.map((p: { name: string }) => p.name));
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
          expect(c[probe]?.httpGet, `${name} ${probe}`).toBeDefined();
          expect(ports.has(c[probe].httpGet.port), `${name} ${probe} port`).toBe(true);
        }
        expect(c.readinessProbe.httpGet.path).toBe('/readyz');
        expect(c.livenessProbe.httpGet.path).toBe('/healthz');
        for (const r of ['cpu', 'memory']) {
          expect(quantity(c.resources.requests[r])).toBeGreaterThan(0);
          expect(quantity(c.resources.requests[r])).toBeLessThanOrEqual(quantity(c.resources.limits[r]));
        }
      }
    }
    // The worker's health server answers probes from outside the pod.
    const worker = containersOf(find('Deployment', 'fanpilot-worker'))[0];
    const env = Object.fromEntries(worker.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    expect(env.WORKER_HEALTH_HOST).toBe('0.0.0.0');
    expect(String(worker.ports[0].containerPort)).toBe(env.WORKER_HEALTH_PORT);
    // The api's streams fit its memory limit: ~160 MB at rest (the image's small V8 heap) and ~21 KB
    // a stream as measured (docs/deployment.md#capacity), counted here with room: 200 MB and 25 KB.
    const api = containersOf(find('Deployment', 'fanpilot-api'))[0];
    const apiEnv = Object.fromEntries(api.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    const streams = Number(apiEnv.LIVE_STREAMS_PER_PROCESS);
    expect(streams).toBeGreaterThan(0);
    expect(quantity(api.resources.limits.memory)).toBeGreaterThanOrEqual(
      (200 + (streams * 25) / 1024) * 1024 ** 2,
    );
  });

  it('reads PostgreSQL, Redis and S3 (outside services) and every secret from the Secret', () => {
    const secretKeys = Object.keys(readDocs('secret.example.yaml')[0]?.stringData ?? {});
    for (const key of [
      'DATABASE_URL',
      'REDIS_URL',
      'S3_ENDPOINT',
      'S3_SECRET_ACCESS_KEY',
      'SESSION_SECRET',
    ]) {
      expect(secretKeys).toContain(key);
    }
    const config = find('ConfigMap', 'fanpilot-config').data ?? {};
    for (const key of secretKeys) expect(config[key], `${key} in the ConfigMap`).toBeUndefined();
    for (const o of [
      find('Deployment', 'fanpilot-api'),
      find('Deployment', 'fanpilot-worker'),
      find('Job', 'fanpilot-migrate'),
    ]) {
      for (const c of containersOf(o)) {
        expect(c.envFrom).toContainEqual({ secretRef: { name: 'fanpilot-secrets' } });
        expect(c.envFrom).toContainEqual({ configMapRef: { name: 'fanpilot-config' } });
        for (const e of c.env ?? []) expect(secretKeys).not.toContain(e.name);
      }
    }
    // No PostgreSQL, Redis or object store runs in the cluster.
    expect(objects.filter((o) => /postgres|redis|minio/i.test(o.metadata.name))).toEqual([]);
  });

  it('scales the api on CPU and the workers on the queue depth, and budgets disruptions', () => {
    const hpa = find('HorizontalPodAutoscaler', 'fanpilot-api');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'fanpilot-api',
    });
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);

    const scaled = find('ScaledObject', 'fanpilot-worker');
    expect(scaled.spec.scaleTargetRef.name).toBe('fanpilot-worker');
    const depth = scaled.spec.triggers.find((t: { type: string }) => t.type === 'metrics-api');
    const url = new URL(depth.metadata.url);
    expect(url.pathname).toBe('/queue-depth');
    const svc = find('Service', url.hostname.split('.')[0] ?? '');
    expect(svc.spec.selector).toEqual(find('Deployment', 'fanpilot-worker').spec.selector.matchLabels);
    expect(svc.spec.ports.map((p: { port: number }) => String(p.port))).toContain(url.port);
    expect(url.hostname.split('.')[1]).toBe('fanpilot');

    for (const name of ['fanpilot-api', 'fanpilot-worker']) {
      const pdb = find('PodDisruptionBudget', name);
      expect(pdb.spec.selector.matchLabels).toEqual(find('Deployment', name).spec.selector.matchLabels);
    }
    expect(find('Service', 'fanpilot-api').spec.selector).toEqual(
      find('Deployment', 'fanpilot-api').spec.selector.matchLabels,
    );
  });
});
