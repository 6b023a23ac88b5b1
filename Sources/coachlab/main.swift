import CoachLab
