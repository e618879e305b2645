/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_DEFAULT_CREATOR?: string;
}
