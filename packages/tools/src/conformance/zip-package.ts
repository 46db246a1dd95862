// Reading a deepcrawl package as a client does (D-deepcrawl-zip): the contract registry's reader.
export {
  type Manifest,
  type ManifestPage,
  readPackage,
  type ZipReading,
} from "@plumbline-kit/contract/checks/zip-package";
