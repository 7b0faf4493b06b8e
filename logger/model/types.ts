// The device model as the data API shows it (field names from the real logger family).

export const DATA_FORMATS = ["BOOL", "SINT8", "USINT8", "SINT16", "USINT16", "SINT32", "USINT32", "FLOAT", "DOUBLE", "SINT64", "USINT64"] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

export type Variable = {
  Id: string;
  Name: string;
  Unit: string;
  DataFormat: DataFormat;
  /** IO: an output whose value is also acquired (read back) as an input. */
  Direction: "I" | "O" | "IO";
  Index: number;
  Precision: number;
  RangeMin: number;
  RangeMax: number;
  DeviceId: string;
  ModuleId: string;
  SourceId: string;
  SampleRateHz: number;
};

/** WGS84 degrees; Site is a short place name. */
export type DeviceLocation = { Lat: number; Lon: number; Site?: string };

export type Module = { ID: string; Name: string; Type: string; Variables: string[] };

export type Device = {
  ID: string;
  Name: string;
  Type: string;
  Serial: string;
  Firmware: string;
  IPAddress: string;
  /** Where the device stands when it is first seen; seeded into its metadata (Latitude, Longitude, Site). */
  Location: DeviceLocation | null;
  SourceId: string;
  SampleRateHz: number;
  Modules: Module[];
};

export type Source = { Id: string; Name: string; PeriodUs: number; DeviceId: string; Variables: string[] };

export type Model = { devices: Device[]; sources: Source[]; variables: Variable[] };

export const emptyModel = (): Model => ({ devices: [], sources: [], variables: [] });
