package dev.cryptoworker.synthetic;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded generator of realistic patients with the field sizes of the SafeNoSQL Patients table
 * (the workload docs/performance.md describes): the same seed and index always give the same patient, so a
 * plain and a secure table can be loaded with identical data.
 */
public final class PatientGenerator {
  private static final List<String> FIRST_NAMES =
      List.of("Maria", "Ana", "Joana", "Beatriz", "Sofia", "Ines", "Carla", "Helena", "Marta", "Rita",
          "Joao", "Pedro", "Miguel", "Tiago", "Rui", "Nuno", "Luis", "Andre", "Paulo", "Bruno",
          "Emma", "Olivia", "Noah", "Liam", "Lucas", "Hugo", "Chloe", "Louise", "Elena", "David");
  private static final List<String> SURNAMES =
      List.of("Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins",
          "Jesus", "Sousa", "Fernandes", "Goncalves", "Gomes", "Lopes", "Marques", "Alves", "Almeida",
          "Ribeiro", "Pinto", "Carvalho", "Teixeira", "Moreira", "Correia", "Mendes", "Nunes", "Soares",
          "Vieira", "Monteiro", "Cardoso", "Rocha");
  private static final List<String> NATIONALITIES = List.of("PRT", "ESP", "FRA", "GBR", "DEU", "BRA", "ITA", "NLD");
  private static final List<String> STREETS =
      List.of("Rua das Flores", "Avenida da Liberdade", "Rua Augusta", "Travessa do Carmo",
          "Rua de Santa Catarina", "Largo do Rato", "Rua do Almada", "Avenida dos Aliados",
          "Rua da Boavista", "Praca da Republica");
  private static final List<String> CITIES =
      List.of("4050-123 Porto", "1250-096 Lisboa", "4700-307 Braga", "3000-214 Coimbra",
          "8000-100 Faro", "4800-010 Guimaraes", "3800-200 Aveiro", "2400-118 Leiria");
  private static final List<String> FINDINGS =
      List.of("Patient reports intermittent headaches over the last two weeks.",
          "Blood pressure within normal range; no medication changes.",
          "Mild seasonal allergy symptoms, antihistamine prescribed.",
          "Follow-up of type 2 diabetes: HbA1c improved since last visit.",
          "Lower back pain after lifting, physiotherapy recommended.",
          "No known drug allergies. Vaccination record up to date.",
          "Cholesterol slightly elevated; dietary counselling given.",
          "Post-operative review: wound healing well, sutures removed.",
          "Complains of fatigue; full blood count and thyroid panel requested.",
          "Asthma well controlled with inhaled corticosteroids.",
          "Smoker, 10 cigarettes a day; cessation programme discussed.",
          "Knee pain on exertion, X-ray shows early osteoarthritis.");

  /** Field sizes in bytes, as in the SafeNoSQL evaluation. */
  static final int MAIN_ID = 64;
  static final int NAME = 64;
  static final int BIRTH = 14;
  static final int NATIONALITY = 4;
  static final int CIVIL_ID = 9;
  static final int ADDRESS = 256;
  static final int CONTACT = 13;
  static final int OBSERVATIONS = 1024;

  private static final DateTimeFormatter BIRTH_FORMAT = DateTimeFormatter.ofPattern("uuuuMMddHHmmss");

  private final long seed;

  public PatientGenerator(long seed) {
    this.seed = seed;
  }

  /** The row key of patient {@code index}. */
  public static String patientId(long index) {
    return String.format("P%07d", index);
  }

  /** Patient number {@code index}, the same for the same seed. */
  public Patient patient(long index) {
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + index);
    String first = pick(r, FIRST_NAMES);
    String last = pick(r, SURNAMES);
    String middle = pick(r, SURNAMES);
    LocalDate birth = LocalDate.of(1930, 1, 1).plusDays(r.nextInt(365 * 85));

    Map<String, Map<String, String>> cells = new LinkedHashMap<>();
    Map<String, String> id = new LinkedHashMap<>();
    id.put("mainId", pad(first + " " + middle + " " + last + " " + birth, MAIN_ID));
    id.put("surname", pad(middle + " " + last, NAME));
    id.put("name", pad(first, NAME));
    // ISO-8601 basic date-time of birth: exactly the 14 bytes of the reference table.
    id.put("birth", birth.atTime(r.nextInt(24), r.nextInt(60), r.nextInt(60)).format(BIRTH_FORMAT));
    id.put("nationality", pad(pick(r, NATIONALITIES), NATIONALITY));
    id.put("civilId", String.format("%08d%d", r.nextInt(100_000_000), r.nextInt(10)));
    cells.put("identification", id);

    Map<String, String> contacts = new LinkedHashMap<>();
    String address =
        pick(r, STREETS) + ", " + (1 + r.nextInt(400)) + ", " + (1 + r.nextInt(9)) + "o Esq, "
            + pick(r, CITIES) + ", Portugal";
    contacts.put("address", fill(r, address, STREETS, ADDRESS));
    contacts.put("contact", String.format("+3519%08d", r.nextInt(100_000_000)).substring(0, CONTACT));
    cells.put("contacts", contacts);

    cells.put("observations", Map.of("observations", fill(r, pick(r, FINDINGS), FINDINGS, OBSERVATIONS)));

    Map<String, String> appointments = new LinkedHashMap<>();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      String appointmentId = String.format("A%07d", r.nextInt(10_000_000));
      appointments.put(appointmentId, LocalDate.of(2015, 1, 1).plusDays(r.nextInt(6 * 365)).toString().replace("-", ""));
    }
    cells.put("appointments", appointments);
    return new Patient(patientId(index), cells);
  }

  private static String pick(SplittableRandom r, List<String> values) {
    return values.get(r.nextInt(values.size()));
  }

  /** Right-pads with spaces to exactly {@code size} characters (a fixed-width field). */
  private static String pad(String s, int size) {
    if (s.length() >= size) {
      return s.substring(0, size);
    }
    return s + " ".repeat(size - s.length());
  }

  /** Appends realistic phrases until {@code size} characters, then cuts to exactly that. */
  private static String fill(SplittableRandom r, String start, List<String> phrases, int size) {
    StringBuilder b = new StringBuilder(start);
    while (b.length() < size) {
      b.append(' ').append(pick(r, phrases));
    }
    return b.substring(0, size);
  }
}
