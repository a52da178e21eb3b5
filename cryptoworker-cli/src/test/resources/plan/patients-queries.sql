-- Workloads A, B and H of docs/performance.md: reads by patient id, QEF on mainId.
SELECT * FROM patients WHERE rowkey = ?;
SELECT name, surname, birth FROM patients WHERE mainId = ?;
-- Patients born in a decade.
SELECT name, surname FROM patients
  WHERE birth BETWEEN '1950-01-01' AND '1959-12-31';
SELECT COUNT(*) FROM patients WHERE nationality IN ('PT', 'ES');
-- No box matches patterns.
SELECT * FROM patients WHERE surname LIKE 'Sil%';
