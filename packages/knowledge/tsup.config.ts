import { nodePackageBuild } from '../../tsup.shared.ts';

export default nodePackageBuild({
  testing: 'src/testing/index.ts',
  'parse-worker': 'src/ingest/parse-worker.ts',
});
