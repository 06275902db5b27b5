/** The authenticated account a request runs on behalf of (the API conventions). */
export interface Caller {
  accountId: number;
  email: string;
  name: string;
  plan: 'pro' | 'free';
  blocked: boolean;
  createdAt: Date;
}
