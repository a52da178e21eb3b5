package dev.cryptoworker.synthetic;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded generator of realistic appointments with the field sizes of the SafeNoSQL Appointments
 * table: dates uniform in 2015-2020, a few hundred physicians, the same seed giving the same data.
 */
public final class AppointmentGenerator {
  /** First instant of the date range (inclusive). */
  public static final LocalDateTime FIRST = LocalDateTime.of(2015, 1, 1, 0, 0);
  /** End of the date range (exclusive). */
  public static final LocalDateTime END = LocalDateTime.of(2021, 1, 1, 0, 0);
  /** ISO-8601 basic date-time: 14 bytes, and lexicographic order is chronological order. */
  public static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuuMMddHHmmss");

  private static final List<String> TYPES =
      List.of("General consultation", "Cardiology follow-up", "Blood test", "Vaccination",
          "Physiotherapy session", "Dermatology consultation", "Prenatal check-up", "X-ray",
          "Ophthalmology exam", "Dental cleaning", "Orthopaedic review", "Nutrition counselling");
  private static final List<String> NOTES =
      List.of("Patient arrived on time; vitals recorded.", "Reviewed recent lab results with the patient.",
          "Prescription renewed for three months.", "Referred to a specialist for further evaluation.",
          "No changes to current treatment plan.", "Follow-up scheduled in six weeks.",
          "Discussed lifestyle changes and exercise.", "Blood pressure slightly elevated today.");
  private static final List<String> INSTITUTIONS =
      List.of("Hospital de Santo Antonio", "Centro de Saude da Boavista", "Hospital de Sao Joao",
          "Clinica do Bonfim", "Unidade de Saude Familiar Ramalde", "Hospital da Luz");
  private static final List<String> STREETS =
      List.of("Largo Prof. Abel Salazar", "Rua do Campo Alegre", "Alameda Prof. Hernani Monteiro",
          "Avenida da Boavista", "Rua de Ramalde", "Rua Damiao de Gois");

  static final int PHYSICIAN = 16;
  static final int PATIENT = 16;
  static final int TYPE = 64;
  static final int OBS = 1024;
  static final int INSTITUTION_NAME = 128;
  static final int ADDRESS = 256;

  private final long seed;
  private final int physicians;

  /** Appointments spread over {@code physicians} physicians. */
  public AppointmentGenerator(long seed, int physicians) {
    this.seed = seed;
    this.physicians = physicians;
  }

  public static String appointmentId(long index) {
    return String.format("A%07d", index);
  }

  /** The physician id of number {@code n}, 16 bytes. */
  public static String physicianId(int n) {
    return String.format("PHY-%012d", n);
  }

  public Appointment appointment(long index) {
    SplittableRandom r = new SplittableRandom(seed * 7_000_003L + index);
    long span = Duration.between(FIRST, END).getSeconds();
    LocalDateTime when = FIRST.plusSeconds(r.nextLong(span));
    Map<String, Map<String, String>> cells = new LinkedHashMap<>();
    cells.put("physician", Map.of("physicianId", physicianId(r.nextInt(physicians))));
    cells.put("patient", Map.of("patientId", pad(PatientGenerator.patientId(r.nextInt(1_000_000)), PATIENT)));
    Map<String, String> appointment = new LinkedHashMap<>();
    appointment.put("date", when.format(DATE));
    appointment.put("type", pad(TYPES.get(r.nextInt(TYPES.size())), TYPE));
    appointment.put("obs", fill(r, NOTES, OBS));
    cells.put("appointment", appointment);
    Map<String, String> institution = new LinkedHashMap<>();
    institution.put("name", pad(INSTITUTIONS.get(r.nextInt(INSTITUTIONS.size())), INSTITUTION_NAME));
    institution.put("address", fill(r, STREETS, ADDRESS));
    cells.put("institution", institution);
    return new Appointment(appointmentId(index), cells);
  }

  private static String pad(String s, int size) {
    return s.length() >= size ? s.substring(0, size) : s + " ".repeat(size - s.length());
  }

  private static String fill(SplittableRandom r, List<String> phrases, int size) {
    StringBuilder b = new StringBuilder();
    while (b.length() < size) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(phrases.get(r.nextInt(phrases.size())));
    }
    return b.substring(0, size);
  }
}
