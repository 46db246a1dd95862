import type { Contract } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
/** A browser (it prefers text/html to JSON) gets the page; curl (any type) and clients asking for JSON get JSON. */
export declare function wantsHtml(req: FastifyRequest): boolean;
export declare function rootLinks(base: string): {
    docs: string;
    openapi: string;
    health: string;
};
export declare function rootRoute(app: FastifyInstance, o: {
    contract: Contract;
    publicUrl?: string;
}): void;
