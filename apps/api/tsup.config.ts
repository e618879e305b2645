import { nodeAppBuild } from '../../tsup.apps.ts';

export default nodeAppBuild({ server: 'src/server.ts' });
