import type { Db } from "../store/db.ts";
import { findUserByName } from "../store/users.ts";
import type { UserRow } from "../store/users.ts";
import { burnPasswordCheck, verifyPassword } from "./passwords.ts";

export async function checkCredentials(db: Db, username: string, password: string): Promise<UserRow | null> {
  const user = findUserByName(db, username);
  if (!user) return burnPasswordCheck(password).then(() => null);
  return (await verifyPassword(password, user.PasswordHash, user.PasswordSalt)) ? user : null;
}
