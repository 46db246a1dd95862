// The part of oidc-provider 9's API the authorization server uses (the package ships no types).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string; redirect_uri?: string };
    session?: { accountId?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    redirectUriAllowed(value: string): boolean;
  }

  export const errors: {
    /** takes no description: its error_description is always the stock "did not match" text */
    InvalidRedirectUri: new () => Error;
    /** invalid_redirect_uri when the description starts with "redirect_uris", else invalid_client_metadata */
    InvalidClientMetadata: new (
      description: string,
    ) => Error;
    InvalidTarget: new (description?: string) => Error;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    use(middleware: (ctx: never, next: () => Promise<void>) => Promise<void>): void;
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    Client: {
      find(id: string): Promise<ClientInstance | undefined>;
      prototype: ClientInstance;
    };
  }
}
