import { nodeAppBuild } from '../../tsup.apps.ts';

export default nodeAppBuild({ main: 'src/main.ts' });
