import type { Db } from "./db.ts";

export type UserRow = {
  ID: number;
  Username: string;
  EMail: string;
  Role: number;
  Timezone: string;
  TimezoneDiffSec: number;
  TimezoneUseDST: number;
  Language: string;
  Theme: string;
  MustChangePassword: number;
  PasswordHash: string;
  PasswordSalt: string;
  Version: number;
};

export type User = {
  ID: number;
  Username: string;
  EMail: string;
  Role: number;
  Timezone: string;
  TimezoneDiffSec: number;
  TimezoneUseDST: boolean;
  Language: string;
  Theme: string;
  MustChangePassword: boolean;
  Version: number;
};

// The only way a user leaves the store: the password columns never reach an answer.
export function toUser(row: UserRow): User {
  return {
    ID: row.ID,
    Username: row.Username,
    EMail: row.EMail,
    Role: row.Role,
    Timezone: row.Timezone,
    TimezoneDiffSec: row.TimezoneDiffSec,
    TimezoneUseDST: row.TimezoneUseDST === 1,
    Language: row.Language,
    Theme: row.Theme,
    MustChangePassword: row.MustChangePassword === 1,
    Version: row.Version,
  };
}

export const findUser = (db: Db, id: number) => db.get<UserRow>("SELECT * FROM users WHERE ID = ?", id);

export const findUserByName = (db: Db, username: string) =>
  db.get<UserRow>("SELECT * FROM users WHERE Username = ? COLLATE NOCASE", username);

export const listUsers = (db: Db) => db.all<UserRow>("SELECT * FROM users ORDER BY ID");

export const usersWithRole = (db: Db, roleId: number) =>
  db.all<UserRow>("SELECT * FROM users WHERE Role = ? ORDER BY Username COLLATE NOCASE", roleId);
