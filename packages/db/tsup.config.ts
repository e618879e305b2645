import { nodePackageBuild } from '../../tsup.shared.ts';

export default nodePackageBuild({ 'migrate-cli': 'src/migrate-cli.ts' });
