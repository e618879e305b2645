import { nodePackageBuild } from '../../tsup.shared.ts';

export default nodePackageBuild();
