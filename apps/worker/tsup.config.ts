import { nodeAppBuild } from '../../tsup.shared.ts';

export default nodeAppBuild({ main: 'src/main.ts' });
