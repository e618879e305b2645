import { nodeAppBuild } from '../../tsup.shared.ts';

export default nodeAppBuild({ server: 'src/server.ts', 'migrate-cli': 'src/migrate-cli.ts' });
