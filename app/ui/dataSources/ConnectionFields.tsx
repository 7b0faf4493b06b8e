import { OPCUA_AUTH, OPCUA_SECURITY_MODES, OPCUA_SECURITY_POLICIES, OPCUA_TRUST, type Protocol } from "~/services/logger/sourceSchemas";
import { useT } from "~/ui/useT";
import type { Errors, Values } from "./draft";
import { CheckField, plainOptions, SelectField, TextField } from "./Field";

/** The connection of one protocol (decision 0010): where the device is and how to sign in. */
export function ConnectionFields({
  protocol,
  values,
  errors,
  hasPassword,
  pending,
  seenFingerprint,
}: {
  protocol: Protocol;
  values: Values;
  errors: Errors;
  hasPassword: boolean;
  pending: string | null;
  /** OPC UA: the fingerprint of the certificate the server presented (last connection or browse), for the operator to check. */
  seenFingerprint: string | null;
}) {
  const t = useT();
  const field = (k: string) => ({ name: `Connection.${k}`, defaultValue: values[`Connection.${k}`] ?? "", errors: errors[`Connection.${k}`] });
  return (
    <fieldset className="flex flex-col gap-4 rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <legend className="px-1 text-sm font-semibold">{t("dataSources.connection")}</legend>
      {protocol === "mqtt" && (
        <>
          <TextField {...field("Url")} label={t("dataSources.mqtt.url")} hint={t("dataSources.mqtt.urlHint")} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField {...field("Username")} label={t("dataSources.username")} />
            <TextField {...field("ClientId")} label={t("dataSources.mqtt.clientId")} hint={t("dataSources.mqtt.clientIdHint")} />
          </div>
        </>
      )}
      {protocol === "modbus" && (
        <div className="grid gap-4 sm:grid-cols-4">
          <TextField {...field("Host")} label={t("dataSources.modbus.host")} className="sm:col-span-2" />
          <TextField {...field("Port")} label={t("dataSources.modbus.port")} type="number" inputMode="numeric" />
          <TextField {...field("UnitId")} label={t("dataSources.modbus.unitId")} type="number" inputMode="numeric" />
          <TextField {...field("TimeoutMs")} label={t("dataSources.modbus.timeoutMs")} type="number" inputMode="numeric" />
        </div>
      )}
      {protocol === "opcua" && (
        <>
          <TextField {...field("Endpoint")} label={t("dataSources.opcua.endpoint")} hint={t("dataSources.opcua.endpointHint")} />
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField {...field("SecurityMode")} label={t("dataSources.opcua.securityMode")} options={plainOptions(OPCUA_SECURITY_MODES)} />
            <SelectField {...field("SecurityPolicy")} label={t("dataSources.opcua.securityPolicy")} options={plainOptions(OPCUA_SECURITY_POLICIES)} />
            <SelectField {...field("Auth")} label={t("dataSources.opcua.auth")} options={OPCUA_AUTH.map((a) => ({ value: a, label: t(`dataSources.opcua.auth_${a}`) }))} />
          </div>
          <TextField {...field("Username")} label={t("dataSources.username")} hint={t("dataSources.opcua.usernameHint")} />
          <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
            <SelectField {...field("Trust")} label={t("dataSources.opcua.trust")} options={OPCUA_TRUST.map((o) => ({ value: o, label: t(`dataSources.opcua.trust_${o}`) }))} hint={t("dataSources.opcua.trustHint")} />
            <TextField
              {...field("Fingerprint")}
              label={t("dataSources.opcua.fingerprint")}
              inputClassName="font-mono text-xs"
              hint={seenFingerprint ? t("dataSources.opcua.fingerprintSeen", { fingerprint: seenFingerprint }) : t("dataSources.opcua.fingerprintNone")}
            />
          </div>
        </>
      )}
      {protocol !== "modbus" && (
        <>
          {/* A password typed before this round trip stays on the server; the page only holds its token. */}
          {pending && <input type="hidden" name="Connection.PendingPassword" value={pending} />}
          <TextField
            name="Connection.Password"
            defaultValue=""
            errors={errors["Connection.Password"]}
            type="password"
            autoComplete="new-password"
            label={t("dataSources.password")}
            placeholder={pending ? t("dataSources.passwordKept") : hasPassword ? t("dataSources.passwordUnchanged") : undefined}
            hint={t(pending ? "dataSources.passwordHintKept" : hasPassword ? "dataSources.passwordHintSet" : "dataSources.passwordHintNone")}
          />
          {hasPassword && <CheckField name="Connection.ClearPassword" label={t("dataSources.clearPassword")} defaultChecked={false} />}
        </>
      )}
    </fieldset>
  );
}
