import { nodePackageBuild } from '../../tsup.shared.ts';

export default nodePackageBuild({
  'parse-worker': 'src/ingest/parse-worker.ts',
  'local-encoder-worker': 'src/ingest/local-encoder-worker.ts',
});
