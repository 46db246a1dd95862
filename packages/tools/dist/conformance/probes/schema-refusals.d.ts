import type { Contract } from "@plumbline-kit/contract";
import { type BoundCase } from "@plumbline-kit/contract/bounds";
/** A derived refusal; `apart`: the cases sharing it go in a request of their own (the siblings' fields). */
export interface RefusalCase extends BoundCase {
    derived: true;
    apart?: string;
}
/** Every derived refusal of every operation with a request object, for the contract's active profile. */
export declare function schemaRefusals(contract: Contract): RefusalCase[];
